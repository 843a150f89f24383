/**
 * Raw HTTPS calls to the Kubernetes stand-in, trusting only the authority it made at start, for tests
 * that check the wire protocol itself (status codes, headers, streamed watch lines).
 */
import { request } from 'node:https';
import type { StandIn } from '../kube-stand-in/index';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Send this token instead of the stand-in's; null sends none. */
  token?: string | null;
}

export function call(standIn: StandIn, method: string, path: string, options: CallOptions = {}): Promise<RawResponse> {
  const token = options.token === undefined ? standIn.token : options.token;
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${standIn.url}${path}`,
      {
        method,
        ca: standIn.certificateAuthority,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: <T>() => JSON.parse(text) as T,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
