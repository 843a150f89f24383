/** deploy/observability's alert rules through Prometheus's own checker (Debian package `prometheus`, which .ci/run installs). */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const folder = fileURLToPath(new URL('../../../deploy/observability/', import.meta.url));

test('promtool check rules accepts the alert rules', () => {
  const output = execFileSync('promtool', ['check', 'rules', `${folder}books-service-alerts.yaml`], {
    encoding: 'utf8',
  });
  assert.match(output, /SUCCESS: \d+ rules found/);
});

test('promtool check config accepts the scrape configuration, rules included', () => {
  const output = execFileSync('promtool', ['check', 'config', `${folder}prometheus-scrape.yaml`], { encoding: 'utf8' });
  assert.match(output, /SUCCESS/);
});
