/**
 * A server-sent event client over a real HTTP connection, as a browser's EventSource reads the
 * stream: frames split on blank lines, comments kept (heartbeats), and a close that drops the
 * connection the way a closed tab does.
 */
import { request, type IncomingMessage } from 'node:http';

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comments: string[];
}

export interface SseStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** Every frame so far. */
  frames: SseFrame[];
  /** The first frame (from `after` on) that matches, waiting for it up to timeoutMs. */
  next(match: (frame: SseFrame) => boolean, timeoutMs?: number, after?: number): Promise<SseFrame>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** The body of a refused stream (JSON). */
  text(): string;
  close(): void;
}

function parseFrame(block: string): SseFrame {
  const frame: SseFrame = { comments: [] };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) frame.comments.push(line.slice(1).trim());
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id' || field === 'event' || field === 'retry') frame[field] = value;
    if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
  }
  return frame;
}

export function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const call = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      const frames: SseFrame[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let raw = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          frames.push(parseFrame(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
        }
        for (const wake of waiters) wake();
      });
      const ended = new Promise<void>((done) => {
        response.on('end', done);
        response.on('close', done);
        response.on('error', () => done());
      });
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        frames,
        ended,
        text: () => raw,
        next(match, timeoutMs = 5_000, after = 0) {
          return new Promise((found, fail) => {
            const look = (): boolean => {
              const hit = frames.slice(after).find(match);
              if (!hit) return false;
              clearTimeout(timer);
              waiters.delete(wake);
              found(hit);
              return true;
            };
            const wake = (): void => void look();
            const timer = setTimeout(() => {
              waiters.delete(wake);
              fail(new Error(`no matching frame within ${timeoutMs} ms; frames: ${JSON.stringify(frames)}`));
            }, timeoutMs);
            if (!look()) waiters.add(wake);
          });
        },
        close: () => call.destroy(),
      });
    });
    call.on('error', reject);
    call.end();
  });
}
