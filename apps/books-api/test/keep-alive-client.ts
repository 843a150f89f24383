/**
 * An HTTP client that behaves like a well-mannered production client: node:http with a keep-alive
 * Agent and a fixed number of sockets, so every connection the server closes or breaks shows up
 * as a new socket (or as a failed request) instead of being hidden by a fresh connection per
 * request.
 */
import { Agent, request, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

export interface KeepAliveResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as UTF-8 text. */
  readonly body: string;
  /** The body's bytes as they came off the connection. */
  readonly bytes: Buffer;
}

export interface KeepAliveRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: string;
}

export class KeepAliveClient {
  readonly #agent: Agent;
  /** Every socket a request of this client went out on; more than `maxSockets` means one was not reused. */
  readonly sockets = new Set<Socket>();

  constructor(
    private readonly port: number,
    readonly maxSockets: number,
  ) {
    this.#agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  send({ method, path, headers = {}, body }: KeepAliveRequest): Promise<KeepAliveResponse> {
    return new Promise((resolve, reject) => {
      const outgoing = request(
        { host: '127.0.0.1', port: this.port, method, path, headers, agent: this.#agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const bytes = Buffer.concat(chunks);
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: bytes.toString('utf8'),
              bytes,
            });
          });
        },
      );
      outgoing.on('socket', (socket) => this.sockets.add(socket));
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
