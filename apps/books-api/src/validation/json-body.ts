import { bodyNotParsed, RequestValidationError } from '../errors.js';
import { findJsonSyntaxError } from './python-json-error.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Python's json module gives up (RecursionError, which FastAPI answers with a 400)
 * around this depth; deeper documents would also overflow our own recursive code.
 */
const MAX_JSON_DEPTH = 1000;

/** Deepest nesting of arrays and objects, ignoring brackets inside strings; stops early past `limit`. */
function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return deepest;
}

/**
 * Decodes a JSON request body the way FastAPI does: an empty body is "no body"
 * (undefined, which validation reports as a missing body); bytes that are not UTF-8
 * are a 400; a syntax error is a 422 `json_invalid` entry located in code points.
 * JSON.parse (not a prototype-stripping parser) is used on purpose: `__proto__` and
 * `constructor` become ordinary own keys, which validation rejects as extra fields.
 */
export function decodeJsonBody(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw bodyNotParsed();
  }
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw bodyNotParsed();
  }
  try {
    return JSON.parse(text);
  } catch {
    const error = findJsonSyntaxError(text) ?? { message: 'Expecting value', position: 0 };
    throw new RequestValidationError([
      {
        type: 'json_invalid',
        loc: ['body', error.position],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: error.message },
      },
    ]);
  }
}

/** application/json and application/<anything>+json, parameters (charset ...) allowed. */
export const JSON_MEDIA_TYPE = /^application\/(?:[\w.!#$&^-]+\+)?json\s*(?:;|$)/i;

export function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && JSON_MEDIA_TYPE.test(contentType.trim());
}
