// Where the service's spans go during `npm run bench -- --tracing`: an HTTP endpoint that reads
// each OTLP export and answers 200 without decoding it, so the figures are the service's cost of
// tracing (spans, their batching, encoding and sending), not a collector's on the same machine.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TraceSink {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Exports received so far. */
  exports(): number;
  close(): Promise<void>;
}

export async function startTraceSink(): Promise<TraceSink> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': '0' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
