// One load run with autocannon. autocannon's own histogram keeps whole milliseconds,
// too coarse for sub-millisecond routes, so latencies are collected here from its
// per-response event (exact to the microsecond) and percentiles computed from them.

import autocannon from 'autocannon';
import { BENCH_HOST, cpuTimeOf } from './processes.js';
import { percentile } from './stats.js';

export interface LoadRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface LoadOptions {
  port: number;
  request: LoadRequest;
  connections: number;
  /** Seconds of load; ignored when `amount` is set. */
  duration: number;
  amount?: number;
  /**
   * One path per request instead of `request.path` (deletes of distinct books): the run sends
   * exactly these, once each, and `duration` and `amount` are ignored.
   */
  paths?: readonly string[];
  /**
   * Requests each connection sends in turn, over and over, instead of `request` alone (the
   * sustained bench's background mix). `request` still names the first one.
   */
  mix?: readonly LoadRequest[];
  /** Server pid, to report how much CPU it used. */
  serverPid?: number;
}

/** What one run counted, whichever load generator ran it; latencies in ms. */
export interface LoadCounts {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface LoadResult extends LoadCounts {
  /**
   * CPU used by the server / by the load generator, as a share of one core (1 = 100%);
   * undefined when it could not be read.
   */
  serverCpu: number | undefined;
  loadgenCpu: number | undefined;
}

/**
 * autocannon's HTTP parser does not know which method it sent, so it waits for the body
 * of a HEAD response that carries no Content-Length (legal: a HEAD response never has a
 * body). This tells the parser, the way Node's own client does, to expect no body.
 */
function expectNoBody(client: unknown): void {
  const parser = (client as { parser: Record<number, unknown> & { constructor: { kOnHeadersComplete: number } } })
    .parser;
  const slot = parser.constructor.kOnHeadersComplete;
  let onHeaders: ((...args: unknown[]) => unknown) | undefined;
  Object.defineProperty(parser, slot, {
    configurable: true,
    get: () => onHeaders,
    set: (handler: (...args: unknown[]) => unknown) => {
      onHeaders = (...args) => {
        handler(...args);
        return true; // skip the body
      };
    },
  });
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { request } = options;
  const latencies: number[] = [];
  let non2xx = 0;
  const headers: Record<string, string> = { ...request.headers };
  if (request.body !== undefined) headers['content-type'] ??= 'application/json';

  const serverCpuBefore = options.serverPid ? cpuTimeOf(options.serverPid) : undefined;
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();

  const paths = options.paths ? [...options.paths] : undefined;
  const mix = options.mix?.map((r) => ({
    method: r.method,
    path: r.path,
    ...(r.body !== undefined ? { body: r.body, headers: { 'content-type': 'application/json', ...r.headers } } : {}),
  }));
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://${BENCH_HOST}:${options.port}${request.path}`,
        method: request.method,
        headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        connections: options.connections,
        pipelining: 1,
        ...(paths
          ? {
              amount: paths.length,
              requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: paths.shift() ?? '/' }) }],
            }
          : mix
            ? { requests: mix, duration: options.duration }
            : options.amount
              ? { amount: options.amount }
              : { duration: options.duration }),
        timeout: 10,
        ...(request.method === 'HEAD' ? { setupClient: expectNoBody } : {}),
      },
      (error: unknown, finished: autocannon.Result) =>
        error ? reject(error instanceof Error ? error : new Error('autocannon failed')) : resolve(finished),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode < 200 || statusCode > 299) non2xx += 1;
      latencies.push(responseTime);
    });
  });

  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = process.cpuUsage(cpuBefore);
  const serverCpuAfter = options.serverPid ? cpuTimeOf(options.serverPid) : undefined;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: (latencies.length * 1000) / elapsedMs,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx,
    errors: result.errors + result.timeouts,
    serverCpu:
      serverCpuBefore !== undefined && serverCpuAfter !== undefined
        ? (serverCpuAfter - serverCpuBefore) / elapsedMs
        : undefined,
    loadgenCpu: (cpu.user + cpu.system) / 1000 / elapsedMs,
  };
}
