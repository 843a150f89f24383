import { parseIntegerText } from './text-values.js';
import { normalisedUuid } from './uuid.js';

/**
 * Shortcuts for path and query values whose schema asks nothing the text parser has not
 * already proved. Returns the value when it is valid, or undefined when the general path
 * (the parser, then the field's compiled Ajv check) must decide, so every error still comes
 * from the general path and reads exactly as before.
 */
export type TextFastPath = (text: string) => unknown;

/** Keywords Ajv does not check (with `useDefaults: false`, a default is only documentation). */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'default',
  'examples',
  '$id',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Decided once per field when a route is compiled; undefined when only Ajv can tell. */
export function textFastPath(fieldSchema: object): TextFastPath | undefined {
  const schema = fieldSchema as Readonly<Record<string, unknown>>;
  const rules = Object.keys(schema).filter((keyword) => !ANNOTATIONS.has(keyword));
  const only = (...allowed: string[]) => rules.every((keyword) => allowed.includes(keyword));

  // The parser's value is the lower-case hyphenated form, which ajv-formats' uuid accepts.
  if (schema['type'] === 'string' && schema['format'] === 'uuid' && only('type', 'format')) return normalisedUuid;

  if (schema['type'] === 'integer' && only('type', 'minimum', 'maximum')) {
    const minimum = schema['minimum'] ?? Number.NEGATIVE_INFINITY;
    const maximum = schema['maximum'] ?? Number.POSITIVE_INFINITY;
    if (typeof minimum !== 'number' || typeof maximum !== 'number') return undefined;
    // The parser yields only finite whole numbers, so `type: integer` holds; the bounds are
    // checked here, and a value outside them goes to Ajv for its error.
    return (text) => {
      const value = parseIntegerText(text);
      return value !== undefined && value >= minimum && value <= maximum ? value : undefined;
    };
  }
  return undefined;
}
