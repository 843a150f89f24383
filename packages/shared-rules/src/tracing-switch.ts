/**
 * Whether an app exports traces, read from the standard OpenTelemetry variables both apps honour
 * (the contract's "Traces"): on when an OTLP endpoint is named and `OTEL_SDK_DISABLED` is not
 * `true`. The SDK itself reads the same variables (endpoint, headers, sampler, resource); this
 * decides only whether it is loaded at all, and refuses at start what it could not honour.
 */

/** The OTLP encodings offered (`OTEL_EXPORTER_OTLP_PROTOCOL`): the SDK's HTTP exporters, not gRPC. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export type TracingSwitch =
  | { readonly enabled: false }
  | {
      readonly enabled: true;
      readonly protocol: OtlpProtocol;
      /** Where spans go, without user or password: for the one log line an unreachable collector gets. */
      readonly tracesUrl: string;
    };

/** A variable the tracing switch cannot honour; each app turns it into its own configuration error. */
export class TracingSettingError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
  ) {
    super(`${variable} ${reason}`);
    this.name = 'TracingSettingError';
  }
}

type Env = Record<string, string | undefined>;

/** An http(s) URL, shown without credentials; the value itself is never echoed (it may carry some). */
function otlpUrl(variable: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TracingSettingError(variable, 'must be an http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TracingSettingError(variable, 'must be an http:// or https:// URL');
  }
  url.username = '';
  url.password = '';
  return url;
}

/** Every variable is read whether or not tracing ends up on, so each is checked at start. */
export function tracingSwitch(env: Env): TracingSwitch {
  const disabled = env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true';
  const tracesEndpoint = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || undefined;
  const endpoint = env['OTEL_EXPORTER_OTLP_ENDPOINT'] || undefined;
  const tracesProtocol = env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] || undefined;
  const generalProtocol = env['OTEL_EXPORTER_OTLP_PROTOCOL'] || undefined;
  const protocolVariable =
    tracesProtocol === undefined ? 'OTEL_EXPORTER_OTLP_PROTOCOL' : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
  const protocol = (tracesProtocol ?? generalProtocol ?? 'http/protobuf').trim();
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new TracingSettingError(protocolVariable, `must be ${OTLP_PROTOCOLS.join(' or ')}`);
  }
  // The SDK's rule: the traces endpoint is used as it is; the general one gets /v1/traces appended.
  const tracesUrl =
    tracesEndpoint !== undefined
      ? otlpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint)
      : endpoint !== undefined
        ? new URL(`${otlpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint).href.replace(/\/$/, '')}/v1/traces`)
        : undefined;
  if (disabled || tracesUrl === undefined) return { enabled: false };
  return { enabled: true, protocol: protocol as OtlpProtocol, tracesUrl: tracesUrl.href };
}
