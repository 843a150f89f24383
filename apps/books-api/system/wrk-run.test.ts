/** The bench's wrk driver against a real wrk (Debian package `wrk`, which .ci/run installs before this suite). */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { runWrk } from '../bench/lib/wrk.js';

test('runWrk: sends the method, body and content type, and stops after `amount` answers', async () => {
  const seen = new Set<string>();
  let answered = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.add(`${req.method} ${req.url} ${req.headers['content-type']} ${body}`);
      answered += 1;
      res.writeHead(answered % 2 === 0 ? 201 : 422, { 'content-length': '2' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const result = await runWrk(
      {
        port,
        request: { method: 'POST', path: '/api/v1/books', body: '{"title":"T"}' },
        connections: 2,
        duration: 1,
        amount: 50,
      },
      undefined,
    );
    assert.deepEqual([...seen], ['POST /api/v1/books application/json {"title":"T"}']);
    // The thread stops after 50 answers; a request or two may still have been in flight.
    assert.ok(result.requests >= 50 && result.requests <= 52, `requests ${result.requests}`);
    assert.ok(result.non2xx >= 24 && result.non2xx <= 27, `non2xx ${result.non2xx}`);
    assert.equal(result.errors, 0);
    assert.ok(result.p50 > 0 && result.p99 >= result.p50);
    assert.equal(typeof result.loadgenCpu, 'number');
  } finally {
    server.close();
  }
});
