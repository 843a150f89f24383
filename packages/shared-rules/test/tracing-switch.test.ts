import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TracingSettingError, tracingSwitch } from '../src/index.js';

test('tracing is off without an OTLP endpoint', () => {
  assert.deepEqual(tracingSwitch({}), { enabled: false });
  assert.deepEqual(tracingSwitch({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }), { enabled: false });
});

test('either endpoint turns it on, http/protobuf by default; the traces endpoint is used as it is', () => {
  assert.deepEqual(tracingSwitch({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }), {
    enabled: true,
    protocol: 'http/protobuf',
    tracesUrl: 'http://collector:4318/v1/traces',
  });
  assert.deepEqual(
    tracingSwitch({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://u:p@tempo.example/otlp/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    }),
    { enabled: true, protocol: 'http/json', tracesUrl: 'https://tempo.example/otlp/traces' },
  );
});

test('OTEL_SDK_DISABLED=true (any case) turns it off; other values do not', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
  assert.equal(tracingSwitch({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' }).enabled, false);
  assert.equal(tracingSwitch({ ...endpoint, OTEL_SDK_DISABLED: 'false' }).enabled, true);
  assert.equal(tracingSwitch({ ...endpoint, OTEL_SDK_DISABLED: '1' }).enabled, true);
});

test('a protocol or endpoint it cannot honour is refused naming the variable, never echoing the value', () => {
  const refusal = (env: Record<string, string>, variable: string) =>
    assert.throws(
      () => tracingSwitch(env),
      (error: unknown) =>
        error instanceof TracingSettingError && error.variable === variable && !error.message.includes('secret'),
    );
  refusal({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  refusal({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL');
  refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318 secret' }, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  refusal({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://secret@host' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
});
