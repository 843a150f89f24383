import { HttpError, RequestValidationError } from '../errors.js';
import { findJsonSyntaxError } from './python-json-error.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

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
    throw new HttpError(400, 'There was an error parsing the body');
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
