import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { buildTestApp } from '../helper.js';

/*
 * deploy/observability's dashboard and alert rules name only metrics the API really exposes:
 * every metric in every query is looked up in the API's own /metrics output. (promtool checks
 * the rules' syntax in the system suite: system/observability-rules.test.ts.)
 */

const folder = new URL('../../../../deploy/observability/', import.meta.url);

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string; exemplar?: boolean }[];
}

const dashboard = JSON.parse(readFileSync(new URL('books-service-dashboard.json', folder), 'utf8')) as {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: { name: string; definition?: string }[] };
};
const rules = parse(readFileSync(new URL('books-service-alerts.yaml', folder), 'utf8')) as {
  groups: { name: string; rules: { alert: string; expr: string }[] }[];
};

/** A metric in a query is a name followed by its selector (every query here selects by job). */
function metricsIn(expression: string): string[] {
  return [
    ...[...expression.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\{/g)].map((match) => match[1]!),
    ...[...expression.matchAll(/label_values\(([a-zA-Z_:][a-zA-Z0-9_:]*)/g)].map((match) => match[1]!),
  ];
}

async function exposed(app: Awaited<ReturnType<typeof buildTestApp>>): Promise<Set<string>> {
  // A request of each kind the queries look at, so their series exist.
  await app.inject('/api/v1/books');
  await app.inject({ method: 'POST', url: '/token', payload: 'username=a&password=b' });
  const text = (await app.inject('/metrics')).body;
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
    if (sample) names.add(sample[1]!);
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) /.exec(line);
    if (type) names.add(type[1]!);
  }
  return names;
}

const queries = [
  ...dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ where: panel.title, expr: target.expr })),
  ),
  ...dashboard.templating.list
    .filter((variable) => variable.definition !== undefined)
    .map((variable) => ({ where: `variable ${variable.name}`, expr: variable.definition! })),
  ...rules.groups.flatMap((group) => group.rules.map((rule) => ({ where: rule.alert, expr: rule.expr }))),
  // The portal's queries are checked against the portal's metrics (apps/portal/src/server/telemetry).
].filter(({ expr }) => !expr.includes('portal_'));

test('every metric the dashboard and the alert rules query is one the API exposes', async (t) => {
  const app = await buildTestApp(t);
  const names = await exposed(app);
  assert.ok(queries.length >= 10, 'the dashboard and the rules have queries');
  for (const { where, expr } of queries) {
    const used = metricsIn(expr);
    assert.ok(used.length > 0, `${where}: a query that names a metric with a selector`);
    for (const metric of used) assert.ok(names.has(metric), `${where}: ${metric} is not in the API's /metrics`);
  }
});

test('the dashboard has RED panels with exemplars, and the rules the three alerts', () => {
  assert.equal(dashboard.uid, 'books-service');
  const titles = dashboard.panels.map((panel) => panel.title.toLowerCase());
  for (const word of ['requests per second', 'error ratio', 'p99', 'database', 'login']) {
    assert.ok(
      titles.some((title) => title.includes(word)),
      `a panel about ${word}`,
    );
  }
  assert.ok(dashboard.panels.some((panel) => panel.targets?.some((target) => target.exemplar === true)));
  const alerts = rules.groups.flatMap((group) => group.rules.map((rule) => rule.alert));
  for (const alert of ['BooksApiHighErrorRatio', 'BooksApiHighLatencyP99', 'BooksApiDatabaseUnavailable']) {
    assert.ok(alerts.includes(alert), alert);
  }
});
