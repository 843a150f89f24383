/** Reading a request body under the API server's size limit, and sending an answer with its headers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { entityTooLarge } from './status.js';

const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw entityTooLarge(MAX_BODY_BYTES);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: { contentType?: string; warnings?: string[] } = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': extra.contentType ?? (typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json'),
    'Content-Length': Buffer.byteLength(text),
    'Audit-Id': randomUUID(),
    'Cache-Control': 'no-cache, private',
    ...(extra.warnings ? { Warning: extra.warnings.map((w) => `299 - ${JSON.stringify(w)}`) } : {}),
  });
  res.end(text);
}
