import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultConfig } from '../../src/config.js';
import { exchange, listeningApp } from '../raw-http.js';

test('a keep-alive connection carries at most MAX_REQUESTS_PER_CONNECTION requests, the last saying Connection: close', async (t) => {
  const connections = { ...defaultConfig().connections, maxRequestsPerConnection: 2 };
  const { port } = await listeningApp(t, { config: { connections } });
  const get = 'GET /api/ps HTTP/1.1\r\nHost: localhost\r\n\r\n';
  // Three requests pipelined: the server closes after the second answer.
  const responses = await exchange(port, get.repeat(3));
  assert.deepEqual(
    responses.map(({ status, headers }) => [status, headers.connection]),
    [
      [200, 'keep-alive'],
      [200, 'close'],
    ],
  );
});
