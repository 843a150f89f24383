/**
 * Query and path values arrive as text; Pydantic parses them in "lax" mode. These
 * parsers accept what Pydantic accepts for the JSON Schema types we use.
 */

/** Surrounding whitespace, an optional sign, digits (single underscores between them), an optional `.000`. */
const INTEGER_TEXT = /^[+-]?\d+(?:_\d+)*(?:\.0*)?$/;

export function parseIntegerText(text: string): number | undefined {
  const trimmed = text.trim();
  if (!INTEGER_TEXT.test(trimmed)) return undefined;
  const value = Number(trimmed.replace(/\.0*$/, '').replaceAll('_', ''));
  return Number.isFinite(value) ? value : undefined;
}

const NUMBER_TEXT = /^[+-]?(?:\d+(?:_\d+)*)?(?:\.\d*)?(?:[eE][+-]?\d+)?$/;

export function parseNumberText(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER_TEXT.test(trimmed) || !/\d/.test(trimmed)) return undefined;
  const value = Number(trimmed.replaceAll('_', ''));
  return Number.isNaN(value) ? undefined : value;
}

const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

export function parseBooleanText(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}
