/**
 * The real server's /metrics through Prometheus's own linter, `promtool check metrics` (Debian
 * package `prometheus`, which .ci/run installs before this suite): metric names and help texts
 * that Prometheus's conventions reject (a gauge named like a counter's _total or a histogram's
 * _count) fail here. promtool lints the Prometheus text format only: given OpenMetrics, it looks
 * for a counter's help under its sample name (`http_requests_total`), where OpenMetrics puts it
 * under the family's (`http_requests`), so the OpenMetrics answer (the same families) is checked
 * by the API's own tests (test/telemetry/tracing.test.ts), not here.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { listeningServer, type ServerProcess } from '../test/server-process.js';

let server: ServerProcess;
before(async () => {
  server = await listeningServer();
});
after(async () => {
  server.child.kill('SIGTERM');
  await server.exit;
});

async function scrape(): Promise<string> {
  const base = `http://127.0.0.1:${server.port}`;
  // Requests first, so the request metrics have series (a histogram with samples, labels).
  await fetch(`${base}/api/v1/books`).then((response) => response.arrayBuffer());
  await fetch(`${base}/api/v1/books/search?q=martin`).then((response) => response.arrayBuffer());
  const response = await fetch(`${base}/metrics`);
  assert.equal(response.status, 200);
  return response.text();
}

function promtoolCheck(text: string): { status: number | null; output: string } {
  const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('promtool check metrics accepts the Prometheus text format of /metrics', async () => {
  const text = await scrape();
  assert.match(text, /^# TYPE books_stored gauge$/m);
  const { status, output } = promtoolCheck(text);
  assert.equal(output, '');
  assert.equal(status, 0);
});
