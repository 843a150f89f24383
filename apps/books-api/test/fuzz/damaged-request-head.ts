/**
 * Requests damaged before the body: broken request lines (methods, targets, versions, line ends)
 * and broken or hostile header lines, sent to routes that read or delete.
 */
import fc from 'fast-check';
import { BOOKS, CRLF, malformed, text } from './malformed-request.js';

/** Identifiers the store never holds: malformed ones, or well-formed random ones. */
const strangeId = fc.oneof(
  fc.constantFrom(
    'not-a-uuid',
    '0',
    '{}',
    'urn:uuid:',
    '00000000-0000-0000-0000-00000000000g',
    'ffffffff-ffff-ffff-ffff-fffffffffffff',
    '%00',
    '%zz',
    '%',
    '..%2f..%2f',
    '%F0%9F%98%80',
    "'%20OR%201=1",
    '__proto__',
    'constructor',
    'search',
    'a'.repeat(5000),
  ),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.uuid().map((id) => `{${id}}`),
  fc.uuid().map((id) => id.replaceAll('-', '')),
  text().map((value) => encodeURIComponent(value)),
);

/** Query parameter values that are not a valid skip or limit (or q) in some way. */
const strangeNumber = fc.oneof(
  fc.constantFrom('-1', '0', '101', '1e3', '1.5', '', '%20', '0x10', '+5', '1_0', 'NaN', 'Infinity', '%zz', '٣'),
  fc.constant('9'.repeat(400)),
  fc.integer().map(String),
  text().map((value) => encodeURIComponent(value)),
);

const strangeQuery = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('skip', 'limit', 'q', '__proto__', 'constructor[prototype][x]'), text(8)),
      strangeNumber,
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}`));

const readTarget = fc.oneof(
  fc.constantFrom('/', '/api/ps', '/api/status', BOOKS, `${BOOKS}/search`, '/metrics', '/docs', '/nope'),
  strangeId.map((id) => `${BOOKS}/${id}`),
);

/** A request line that the server must refuse or answer without changing anything. */
export const requestLine = fc
  .record({
    method: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS') },
      {
        weight: 2,
        arbitrary: fc.constantFrom('TRACE', 'PROPFIND', 'CONNECT', 'get', 'G ET', 'GETT', 'FOO', 'PRI', '', ' GET'),
      },
      { weight: 1, arbitrary: text(8).filter((method) => method !== 'HEAD') },
    ),
    target: fc.oneof(
      { weight: 4, arbitrary: fc.tuple(readTarget, strangeQuery).map(([path, query]) => path + query) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '*',
          'http://example.com/api/ps',
          'example.com:443',
          '/a b',
          '//',
          '/%',
          '/api/ps#fragment',
          '/\x00',
          `/${'x'.repeat(20_000)}`,
        ),
      },
      { weight: 1, arbitrary: text(40) },
    ),
    version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/1.1', 'HTTP/2.0', 'HTTP/0.9', 'http/1.1', 'HTTP/1.x', ''),
    eol: fc.constantFrom(CRLF, CRLF, '\n', '\r'),
  })
  .map(({ method, target, version, eol }) =>
    malformed('request line', Buffer.from(`${method} ${target} ${version}${eol}Host: localhost${eol}${eol}`, 'latin1')),
  );

/** One header line's worth of damage (or hostility). */
export const damagedHeader = fc.oneof(
  fc.constantFrom(
    'Bad Header: x',
    ': no-name',
    'No-Colon',
    'X-Ctl\x01: v',
    'X-Nul: a\x00b',
    ' folded: continuation',
    'Host: second.example',
    'Host:',
    'Content-Length: 0',
    'Content-Length: -1',
    'Content-Length: abc',
    'Transfer-Encoding: chunked',
    'Transfer-Encoding: gzip',
    'Expect: 100-continue',
    'Expect: foo',
    'Connection: upgrade\r\nUpgrade: websocket',
    'Connection: close, close',
    'X-Force-Error: 500',
    'X-Force-Error: ５００',
    'Authorization: Bearer not.a.token',
    'Authorization: Basic Og==',
    'Authorization: ',
    'Accept: application/xml',
    'Content-Type: multipart/form-data',
    'X-Request-ID: ',
    `X-Request-ID: ${'r'.repeat(200)}`,
    'X-Request-ID: a\x7fb',
    'X-Request-ID: dup-1\r\nX-Request-ID: dup-2',
    `X-Filler: ${'a'.repeat(17 * 1024)}`,
    Array.from({ length: 300 }, (_, index) => `X-Many-${index}: ${index}`).join(CRLF),
  ),
  fc
    .tuple(
      fc.constantFrom('X-Request-ID', 'Authorization', 'X-Force-Error', 'Cookie', 'Accept', 'Host', 'X-Random'),
      text(),
    )
    .map(([name, value]) => `${name}: ${value}`),
  fc.tuple(text(12), text()).map(([name, value]) => `${name}: ${value}`),
);

const headerTarget = fc.oneof(
  readTarget.map((path) => `GET ${path}`),
  fc.uuid().map((id) => `DELETE ${BOOKS}/${id}`),
  fc.constant(`POST ${BOOKS}`),
  fc.constant('POST /token'),
);

export const damagedHeaders = fc
  .record({ start: headerTarget, headers: fc.array(damagedHeader, { minLength: 1, maxLength: 4 }) })
  .map(({ start, headers }) =>
    malformed(
      'headers',
      Buffer.from(`${start} HTTP/1.1${CRLF}Host: localhost${CRLF}${headers.join(CRLF)}${CRLF}${CRLF}`, 'latin1'),
    ),
  );
