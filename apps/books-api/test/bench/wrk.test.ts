import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseChildrenTimes, parseWrkOutput, wrkCannotSend, wrkScript, wrkTimeToMs } from '../../bench/lib/wrk.js';

// runWrk itself drives the wrk program: system/wrk-run.test.ts.

// wrk 4.1's report for a fast route: latencies in us and ms, no failures (no Socket errors or
// Non-2xx lines), then the `times` of the shell that ran it.
const FAST = `Running 3s test @ http://127.0.0.1:8300/api/v1/books/3fa85f64-5717-4562-b3fc-2c963f66afa6
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.02ms  412.50us  11.20ms   91.30%
    Req/Sec    16.61k   702.11    17.40k    86.67%
  Latency Distribution
     50%  946.00us
     75%    3.05ms
     90%    3.31ms
     99%    4.87ms
  49612 requests in 3.00s, 28.11MB read
Requests/sec:  16532.45
Transfer/sec:      9.37MB
0m0.000000s 0m0.000000s
0m0.310000s 0m1.420000s
`;

// A slow, failing run: latencies in ms and s, socket errors and answers of 400 and more.
const FAILING = `Running 5s test @ http://127.0.0.1:8301/api/v1/books
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   412.30ms  380.02ms   1.99s    72.10%
    Req/Sec   118.40     40.20   190.00     68.00%
  Latency Distribution
     50%  310.25ms
     75%  600.00ms
     90%  900.10ms
     99%    1.85s
  590 requests in 5.01s, 1.20MB read
  Socket errors: connect 0, read 3, write 1, timeout 12
  Non-2xx or 3xx responses: 57
Requests/sec:    117.76
Transfer/sec:    245.10KB
`;

test('parseWrkOutput: figures of a clean run, latencies in us and ms', () => {
  const report = parseWrkOutput(FAST);
  assert.equal(report.requests, 49612);
  assert.equal(report.rps, 16532.45);
  assert.ok(Math.abs(report.p50 - 0.946) < 1e-9);
  assert.equal(report.p99, 4.87);
  assert.equal(report.non2xx, 0);
  assert.equal(report.errors, 0);
});

test('parseWrkOutput: a failing run counts socket errors and non-2xx answers, latencies in ms and s', () => {
  const report = parseWrkOutput(FAILING);
  assert.equal(report.requests, 590);
  assert.equal(report.rps, 117.76);
  assert.equal(report.p50, 310.25);
  assert.equal(report.p99, 1850);
  assert.equal(report.non2xx, 57);
  assert.equal(report.errors, 16);
});

test('parseWrkOutput: output without the latency distribution is refused', () => {
  const withoutLatency = FAST.split('\n')
    .filter((line) => !/^\s+\d+%\s/.test(line))
    .join('\n');
  assert.throws(() => parseWrkOutput(withoutLatency), /--latency/);
  assert.throws(() => parseWrkOutput('unable to connect to 127.0.0.1:8300 Connection refused'));
});

test('wrkTimeToMs: every unit wrk prints', () => {
  assert.equal(wrkTimeToMs('500.00us'), 0.5);
  assert.equal(wrkTimeToMs('2.31ms'), 2.31);
  assert.equal(wrkTimeToMs('1.50s'), 1500);
  assert.equal(wrkTimeToMs('1.20m'), 72_000);
  assert.throws(() => wrkTimeToMs('12'));
});

test("parseChildrenTimes: user + system CPU of the shell's children, in dash's and bash's format", () => {
  assert.ok(Math.abs((parseChildrenTimes(FAST) ?? NaN) - 1730) < 1e-6);
  assert.equal(parseChildrenTimes('0m0.001s 0m0.000s\n1m2.500s 0m0.250s\n'), 62_750);
  assert.equal(parseChildrenTimes(FAILING), undefined);
});

test('wrkScript: none for a plain GET; method and body verbatim in a Lua long string otherwise', () => {
  assert.equal(wrkScript({ method: 'GET', path: '/api/v1/books' }), undefined);
  const body = '{"title":"a]]b]=]c","year":2019}';
  const script = wrkScript({ method: 'PATCH', path: '/api/v1/books/x', body }) ?? '';
  assert.match(script, /^wrk\.method = "PATCH"$/m);
  assert.ok(script.includes(`wrk.body = [==[${body}]==]`));
  assert.match(
    wrkScript({ method: 'POST', path: '/', body: '{}' }, 2000) ?? '',
    /answered >= 2000 then wrk\.thread:stop\(\)/,
  );
  assert.ok(wrkCannotSend({ method: 'HEAD', path: '/api/status' }));
  assert.equal(wrkCannotSend({ method: 'POST', path: '/api/v1/books', body: '{}' }), undefined);
});
