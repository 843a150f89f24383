import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReportedExporter } from '../src/index.js';

test('a collector that fails is logged once until an export works again, which is logged too', () => {
  const outcomes = [1, 1, 1, 0, 0, 1];
  const lines: string[] = [];
  const log = {
    warn: (_fields: object, message: string) => lines.push(`warn ${message}`),
    info: (_fields: object, message: string) => lines.push(`info ${message}`),
  };
  const inner = {
    export: (_spans: string[], done: (result: { code: number; error?: Error }) => void) =>
      done({ code: outcomes.shift()!, error: new Error('connect ECONNREFUSED') }),
    shutdown: () => Promise.resolve(),
  };
  const exporter = new ReportedExporter(inner, 'http://127.0.0.1:4318/v1/traces', log);
  const results: number[] = [];
  for (let batch = 0; batch < 6; batch++) exporter.export(['span'], (result) => results.push(result.code));
  assert.deepEqual(results, [1, 1, 1, 0, 0, 1]);
  assert.deepEqual(
    lines.map((line) => line.split(':')[0]),
    ['warn traces cannot be exported', 'info traces are exported again', 'warn traces cannot be exported'],
  );
});
