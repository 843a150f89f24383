import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';

export interface ExportFailureLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/**
 * The exporter, with a collector that cannot be reached logged once, not per batch or per span:
 * the first failure is a warning, later ones are silent until an export works again (logged
 * too, so the warning's end is visible). Spans are exported in the background by the batch
 * processor, so a collector that is down never holds a request; its spans are dropped.
 */
export class ReportedExporter implements SpanExporter {
  #failing = false;

  constructor(
    private readonly inner: SpanExporter,
    private readonly tracesUrl: string,
    private readonly log: ExportFailureLog,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) {
        if (this.#failing) this.log.info({ tracesUrl: this.tracesUrl }, 'traces are exported again');
        this.#failing = false;
      } else if (!this.#failing) {
        this.#failing = true;
        this.log.warn(
          { tracesUrl: this.tracesUrl, reason: result.error?.message },
          'traces cannot be exported: spans are dropped until the collector answers (logged once)',
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
