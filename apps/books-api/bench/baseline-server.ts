// The baseline of `npm run bench`: a bare node:http server that answers the benchmark's
// requests with the service's own responses, precomputed. It does the per-request work
// any HTTP service must do (read the request and its body, parse the URL, pick the answer,
// give the response an X-Request-ID as the contract requires) and nothing else: no
// routing tables, validation, store or serialization. Its throughput is the ceiling the
// service is compared with.
//
// Usage: node --import tsx bench/baseline-server.ts <captured-responses.json> <port>

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { CapturedResponse } from './lib/capture.js';

interface Answer {
  query: Record<string, string>;
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

const [file, portText] = process.argv.slice(2);
if (!file || !portText) {
  console.error('usage: baseline-server.ts <captured-responses.json> <port>');
  process.exit(2);
}

const captured = JSON.parse(readFileSync(file, 'utf8')) as CapturedResponse[];
const answers = new Map<string, Answer>();
for (const c of captured) {
  const body = Buffer.from(c.bodyBase64, 'base64');
  answers.set(`${c.method} ${c.pathname}`, {
    query: c.query,
    status: c.status,
    headers: { ...c.headers, 'content-length': String(body.length) },
    body,
  });
}
const notFound = Buffer.from('{"detail":"Not Found"}');

/** The request must carry exactly the query parameters of the captured one. */
function sameQuery(actual: Record<string, string | string[] | undefined>, expected: Record<string, string>): boolean {
  let seen = 0;
  for (const name in actual) {
    if (actual[name] !== expected[name]) return false;
    seen += 1;
  }
  return seen === Object.keys(expected).length;
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? {} : parseQuery(url.slice(queryAt + 1));
  const answer = answers.get(`${req.method} ${pathname}`);

  const reply = (): void => {
    if (!answer || !sameQuery(query, answer.query)) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': randomUUID() });
      res.end(notFound);
      return;
    }
    res.writeHead(answer.status, { ...answer.headers, 'x-request-id': randomUUID() });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  };

  if (req.method === 'POST' || req.method === 'PATCH') {
    // Read the whole body, as the service must before it answers (but do not parse it).
    req.on('data', () => {});
    req.on('end', reply);
  } else {
    req.resume();
    reply();
  }
});

// Fastify's default, so idle connections are treated alike on both sides.
server.keepAliveTimeout = 72_000;
server.listen(Number(portText), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
