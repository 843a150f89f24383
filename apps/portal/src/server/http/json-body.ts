import 'server-only';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../model/errors';

export const MAX_BODY_BYTES = 64 * 1024;

function isJsonContentType(value: string | null): boolean {
  const mediaType = value?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

const tooLarge = () => new PayloadTooLargeError(`Request body must not exceed ${MAX_BODY_BYTES / 1024} KiB`);

/** Reads at most `limit` bytes, whatever Content-Length claims; a chunked body is counted too. */
async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The JSON body of a mutating request: application/json, at most MAX_BODY_BYTES, well-formed. */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new UnsupportedMediaTypeError('Request body must be JSON (Content-Type: application/json)');
  }
  const bytes = await readLimited(request, limit);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidRequestError('Request body is not valid UTF-8');
  }
  if (text.trim() === '') throw new InvalidRequestError('Request body is empty; send a JSON object');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidRequestError('Request body is not valid JSON');
  }
}
