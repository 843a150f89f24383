// Captures what the service answers to each route of the mix, so the baseline can send
// byte-identical bodies with the same status and meaningful headers.

import { request } from 'node:http';
import type { LoadRequest } from './load.js';
import { BENCH_HOST } from './processes.js';

export interface CapturedResponse {
  method: string;
  /** Path without the query string: what the baseline keys its answers on. */
  pathname: string;
  query: Record<string, string>;
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

/** Headers every HTTP server adds by itself or that differ per response; the baseline sets its own. */
const PER_CONNECTION_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'x-request-id',
  'transfer-encoding',
]);

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function send(port: number, req: LoadRequest): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers['content-type'] ??= 'application/json';
    const outgoing = request({ host: BENCH_HOST, port, path: req.path, method: req.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

export async function capture(port: number, req: LoadRequest): Promise<CapturedResponse> {
  const answer = await send(port, req);
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(
      `${req.method} ${req.path} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`,
    );
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (!PER_CONNECTION_HEADERS.has(name)) headers[name] = value;
  }
  return {
    method: req.method,
    pathname: req.path.split('?')[0] ?? req.path,
    query: Object.fromEntries(new URLSearchParams(req.path.split('?')[1] ?? '')),
    status: answer.status,
    headers,
    bodyBase64: answer.body.toString('base64'),
  };
}
