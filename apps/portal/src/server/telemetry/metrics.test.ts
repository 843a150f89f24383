import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { handleRoute } from '../http/handle-route';
import { TEST_PROXY_SECRET, throughProxy } from '../../../test/proxy-sign-in';
import { startMetricsServer } from './metrics';

/** The value of one sample in a text exposition, or undefined when there is no such series. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the portal metrics listener', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    vi.stubEnv('PORTAL_AUTH', 'proxy');
    vi.stubEnv('PORTAL_PROXY_SECRET', TEST_PROXY_SECRET);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true); // the request lines
    server = await startMetricsServer(0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  const scrape = async () => (await fetch(`${base}/metrics`)).text();

  it('counts and times each answer of an API route by method, route and status', async () => {
    const ok = handleRoute(async () => Response.json({ items: [] }));
    const denied = handleRoute(async () => Response.json({}));
    const signedIn = { headers: throughProxy({ 'x-forwarded-user': 'dev' }) };
    const series = 'portal_http_requests_total{method="GET",route="/api/platform/resource-groups",status_code="200"}';
    const before = sample(await scrape(), series) ?? 0;
    await ok(new Request('http://portal.test/api/platform/resource-groups?x=1', signedIn));
    await ok(new Request('http://portal.test/api/platform/resource-groups', signedIn));
    await denied(new Request('http://portal.test/api/platform/resource-groups')); // no proof: 401

    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(sample(text, series)).toBe(before + 2);
    expect(
      sample(text, 'portal_http_requests_total{method="GET",route="/api/platform/resource-groups",status_code="401"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'portal_http_request_duration_seconds_count{method="GET",route="/api/platform/resource-groups",status_code="200"}',
      ),
    ).toBe(before + 2);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('keeps the number of route series bounded whatever paths arrive', async () => {
    const route = handleRoute(async () => Response.json({}));
    const signedIn = { headers: throughProxy({ 'x-forwarded-user': 'dev' }) };
    for (let i = 0; i < 200; i++) await route(new Request(`http://portal.test/api/platform/x${i}`, signedIn));
    const text = await scrape();
    const routes = new Set(
      [...text.matchAll(/^portal_http_requests_total\{[^}]*route="([^"]*)"/gm)].map((match) => match[1]),
    );
    expect(routes.size).toBeLessThanOrEqual(33);
    expect(routes).toContain('other');
  });

  it('names every metric as Prometheus does: _total only on counters, no metric named _count', async () => {
    const types = new Map(
      [...(await scrape()).matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']),
    );
    expect(types.get('portal_http_requests_total')).toBe('counter');
    expect(types.get('nodejs_active_handles')).toBe('gauge');
    // promtool check metrics rejects a gauge named like a counter or like a histogram's count.
    for (const [name, type] of types) {
      if (name.endsWith('_total')) expect([name, type]).toEqual([name, 'counter']);
      expect(name).not.toMatch(/_count$/);
    }
  });

  it('serves only GET /metrics', async () => {
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/api/platform/resources`)).status).toBe(404);
    const post = await fetch(`${base}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

/*
 * deploy/observability's portal panels and rules (the ones selecting the portal's job) name only
 * metrics the portal exposes. The Books API checks its own queries the same way.
 */
describe("the dashboard's and the rules' portal queries", () => {
  const folder = new URL('../../../../../deploy/observability/', import.meta.url);
  const dashboard = JSON.parse(readFileSync(new URL('books-service-dashboard.json', folder), 'utf8')) as {
    panels: { title: string; targets?: { expr: string }[] }[];
    templating: { list: { name: string; definition?: string }[] };
  };
  const rules = parse(readFileSync(new URL('books-service-alerts.yaml', folder), 'utf8')) as {
    groups: { rules: { alert: string; expr: string }[] }[];
  };
  const portalQueries = [
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
    ...dashboard.templating.list.flatMap((variable) =>
      variable.definition === undefined ? [] : [variable.definition],
    ),
    ...rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr)),
  ].filter((expr) => expr.includes('portal_'));

  it('name metrics the portal exposes', async () => {
    const server = await startMetricsServer(0, '127.0.0.1');
    try {
      const text = await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)).text();
      const exposed = new Set([...text.matchAll(/^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) /gm)].map((match) => match[1]));
      expect(portalQueries.length).toBeGreaterThanOrEqual(4);
      for (const expr of portalQueries) {
        const used = [
          ...[...expr.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\{/g)].map((match) => match[1]!),
          ...[...expr.matchAll(/label_values\(([a-zA-Z_:][a-zA-Z0-9_:]*)/g)].map((match) => match[1]!),
        ].map((name) => name.replace(/_(bucket|count|sum)$/, ''));
        expect(used.length, expr).toBeGreaterThan(0);
        for (const name of used) expect(exposed, `${name} in ${expr}`).toContain(name);
      }
    } finally {
      server.close();
    }
  });
});
