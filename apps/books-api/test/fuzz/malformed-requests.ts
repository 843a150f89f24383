/**
 * fast-check arbitraries for malformed HTTP/1.1 requests, as raw bytes: broken request lines,
 * broken or hostile headers, broken framing (Content-Length / Transfer-Encoding), and bodies
 * that no body-reading route may accept. Every write they build is invalid by construction
 * (a wrong body, media type or framing, or an id that is not in the store), so a store that
 * changes after one of them is a fault of the server, never of the generator.
 */
import fc from 'fast-check';
import { damagedBody } from './damaged-request-body.js';
import { damagedHeaders, requestLine } from './damaged-request-head.js';
import { CRLF, malformed, type MalformedRequest } from './malformed-request.js';

/** Any malformed request; the books with `bookIds` exist in the store and must stay as they are. */
export function malformedRequest(bookIds: readonly string[]): fc.Arbitrary<MalformedRequest> {
  const single = fc.oneof(
    { weight: 2, arbitrary: requestLine },
    { weight: 2, arbitrary: damagedHeaders },
    { weight: 4, arbitrary: damagedBody(bookIds) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => malformed('bytes', Buffer.from(bytes))),
    },
  );
  return fc.oneof(
    { weight: 9, arbitrary: single },
    {
      // Pipelined behind a valid request: the valid one is answered first, the damaged one after.
      weight: 1,
      arbitrary: single.map(({ kind, bytes }) =>
        malformed(
          `pipelined ${kind}`,
          Buffer.concat([Buffer.from(`GET /api/ps HTTP/1.1${CRLF}Host: localhost${CRLF}${CRLF}`), bytes]),
        ),
      ),
    },
  );
}
