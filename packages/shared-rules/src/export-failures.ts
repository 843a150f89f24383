import { context, ROOT_CONTEXT } from '@opentelemetry/api';

/*
 * The rule both apps follow for a trace collector they cannot reach: it never fails or slows a
 * request (spans are exported in the background and dropped when the export fails), and it is
 * logged once, not per batch or per span. Written against the shape of the OpenTelemetry SDK's
 * SpanExporter, so this package needs only the OpenTelemetry API, not the SDK.
 */

/** The SDK's ExportResult: code 0 is SUCCESS. */
interface ExportResult {
  code: number;
  error?: Error;
}

export interface SpanExporterLike<Span> {
  export(spans: Span[], resultCallback: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}

export interface ExportFailureLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

const SUCCESS = 0;

function outsideAnyTrace(write: () => void): void {
  context.with(ROOT_CONTEXT, write);
}

/**
 * The exporter, logging the first failed export as a warning and the next successful one after
 * it, and nothing in between.
 *
 * Those lines are written outside any trace. The batch processor exports from a timer started
 * when a span ended, so the export, and its callback, run in the context of whichever request
 * ended that span; the apps' log mixins would put that request's trace id on a line about the
 * collector.
 */
export class ReportedExporter<Span> implements SpanExporterLike<Span> {
  #failing = false;

  constructor(
    private readonly inner: SpanExporterLike<Span>,
    private readonly tracesUrl: string,
    private readonly log: ExportFailureLog,
  ) {}

  export(spans: Span[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === SUCCESS) {
        if (this.#failing)
          outsideAnyTrace(() => this.log.info({ tracesUrl: this.tracesUrl }, 'traces are exported again'));
        this.#failing = false;
      } else if (!this.#failing) {
        this.#failing = true;
        outsideAnyTrace(() =>
          this.log.warn(
            { tracesUrl: this.tracesUrl, reason: result.error?.message },
            'traces cannot be exported: spans are dropped until the collector answers (logged once)',
          ),
        );
      }
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
