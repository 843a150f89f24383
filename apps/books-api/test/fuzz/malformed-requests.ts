/**
 * fast-check arbitraries for malformed HTTP/1.1 requests, as raw bytes: broken request lines,
 * broken or hostile headers, broken framing (Content-Length / Transfer-Encoding), and bodies
 * that no body-reading route may accept. Every write they build is invalid by construction
 * (a wrong body, media type or framing, or an id that is not in the store), so a store that
 * changes after one of them is a fault of the server, never of the generator.
 */
import fc from 'fast-check';

export interface MalformedRequest {
  /** Which part is damaged; shown when a property fails. */
  readonly kind: string;
  readonly bytes: Buffer;
}

/** A request that prints readably in fast-check's counterexamples. */
function malformed(kind: string, bytes: Buffer): MalformedRequest {
  return {
    kind,
    bytes,
    [fc.toStringMethod]: () => describeRequest({ kind, bytes }),
  } as MalformedRequest;
}

export function describeRequest(request: MalformedRequest): string {
  const shown = request.bytes.subarray(0, 400).toString('latin1');
  const more = request.bytes.length > 400 ? ` (+${request.bytes.length - 400} bytes)` : '';
  return `${request.kind}: ${JSON.stringify(shown)}${more}`;
}

const CRLF = '\r\n';
const BOOKS = '/api/v1/books';
/** The JSON body limit of the books routes and the form limit of /token (src/app.ts, src/routes/token.ts). */
const JSON_BODY_LIMIT = 1024 * 1024;
const FORM_BODY_LIMIT = 64 * 1024;

const text = (maxLength = 24) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: fc.constantFrom(...'\r\n\t\0 :;,"\'\\/%?#&=[]{}'.split('')), maxLength }),
  );

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
const requestLine = fc
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
const damagedHeader = fc.oneof(
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

const damagedHeaders = fc
  .record({ start: headerTarget, headers: fc.array(damagedHeader, { minLength: 1, maxLength: 4 }) })
  .map(({ start, headers }) =>
    malformed(
      'headers',
      Buffer.from(`${start} HTTP/1.1${CRLF}Host: localhost${CRLF}${headers.join(CRLF)}${CRLF}${CRLF}`, 'latin1'),
    ),
  );

// ---------------------------------------------------------------------------------------------
// Bodies

const validBook = { title: 'Fuzzed', author: 'Fuzz', year: 2000 };

/** JSON bodies that neither POST (a full book) nor PATCH (a partial one) may store. */
const invalidBookJson = fc.oneof(
  text(64),
  fc.json({ maxDepth: 3 }),
  fc.nat({ max: 40 }).map((cut) => JSON.stringify(validBook).slice(0, cut)),
  fc.constantFrom(
    '{"__proto__":{"polluted":"yes"}}',
    `{"title":"t","author":"a","year":2000,"__proto__":{"polluted":"yes"}}`,
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    `{"title":"t","author":"a","year":2000,"constructor":{"prototype":{"polluted":"yes"}}}`,
    `{"title":"t","author":"a","year":2000,"prototype":{"polluted":"yes"}}`,
    '{"title":null,"author":null,"year":null}',
    '{"title":"","author":"a","year":2000}',
    `{"title":"${'t'.repeat(201)}","author":"a","year":2000}`,
    '{"title":"t","author":"a","year":1899}',
    '{"title":"t","author":"a","year":2000.5}',
    '{"title":"t","author":"a","year":"2000x"}',
    '{"title":"t","author":"a","year":1e400}',
    '{"title":["t"],"author":{"a":1},"year":true}',
    '{"title":"t","title":"u","author":"a","year":2000,"extra":1}',
    '{"title":"\\ud800","author":"a","year":2000,"x":0}',
    '[{"title":"t","author":"a","year":2000}]',
    '"{\\"title\\":\\"t\\"}"',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    '\ufeff{"title":"t","author":"a","year":2000,"x":1}',
    '{"title":"t","author":"a","year":2000}{"title":"t"}',
  ),
  fc.json().map((extra) => `{"title":"t","author":"a","year":2000,"extra":${extra}}`),
);

const urlencodedForm = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'username',
          'password',
          'grant_type',
          'scope',
          '__proto__[polluted]',
          'constructor[prototype][x]',
        ),
        text(8),
      ),
      text(),
    ),
    { maxLength: 12 },
  )
  .map((pairs) => pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&'));

const BOUNDARY = 'fuzzboundary';
const multipartForm = fc
  .record({
    parts: fc.array(
      fc.record({
        name: fc.oneof(fc.constantFrom('username', 'password', 'grant_type', '__proto__'), text(8)),
        value: text(),
        file: fc.boolean(),
      }),
      { maxLength: 12 },
    ),
    ending: fc.constantFrom(`--${BOUNDARY}--${CRLF}`, `--${BOUNDARY}--`, '', `--other--${CRLF}`, 'garbage'),
  })
  .map(({ parts, ending }) =>
    [
      ...parts.map(
        ({ name, value, file }) =>
          `--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="${name}"` +
          `${file ? '; filename="a.txt"' : ''}${CRLF}${CRLF}${value}${CRLF}`,
      ),
      ending,
    ].join(''),
  );

const mediaType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/json; charset=latin1',
    'application/x-www-form-urlencoded',
    `multipart/form-data; boundary=${BOUNDARY}`,
    'multipart/form-data; boundary=zz',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'text/plain',
    'application/xml',
    'application/json, text/plain',
    '*/*',
    '',
    ';',
  ),
  text(20),
);

/** The routes that read a body; ids of existing books are only ever sent invalid bodies. */
const bodyRoute = (bookIds: readonly string[]) =>
  fc.oneof(
    fc.constant(`POST ${BOOKS}`),
    fc.constantFrom(...bookIds).map((id) => `PATCH ${BOOKS}/${id}`),
    fc.constantFrom(...bookIds).map((id) => `PUT ${BOOKS}/${id}`),
    fc.constant('POST /token'),
  );

/** How the body is framed: correctly, or in one of the ways a parser must refuse. */
const framing = fc.constantFrom(
  'content-length',
  'content-length',
  'chunked',
  'none',
  'declared-longer',
  'declared-shorter',
  'declared-oversized',
  'negative-length',
  'non-numeric-length',
  'two-lengths',
  'length-and-chunked',
  'unknown-coding',
  'bad-chunk-size',
  'unterminated-chunks',
);
type Framing = typeof framing extends fc.Arbitrary<infer T> ? T : never;

function frame(kind: Framing, body: Buffer): { headers: string[]; body: Buffer } {
  const length = body.length;
  const chunked = Buffer.concat([
    Buffer.from(`${length.toString(16)}${CRLF}`),
    body,
    Buffer.from(`${CRLF}0${CRLF}${CRLF}`),
  ]);
  switch (kind) {
    case 'content-length':
      return { headers: [`Content-Length: ${length}`], body };
    case 'chunked':
      return { headers: ['Transfer-Encoding: chunked'], body: length === 0 ? Buffer.from(`0${CRLF}${CRLF}`) : chunked };
    case 'none':
      return { headers: [], body };
    case 'declared-longer':
      return { headers: [`Content-Length: ${length + 1 + (length % 7)}`], body };
    case 'declared-shorter':
      return { headers: [`Content-Length: ${Math.max(0, length - 1)}`], body };
    case 'declared-oversized':
      return { headers: [`Content-Length: ${length % 2 === 0 ? JSON_BODY_LIMIT + 1 : 100 * JSON_BODY_LIMIT}`], body };
    case 'negative-length':
      return { headers: ['Content-Length: -1'], body };
    case 'non-numeric-length':
      return { headers: [`Content-Length: ${length} `, 'Content-Length: 1e3'].slice(length % 2), body };
    case 'two-lengths':
      return { headers: [`Content-Length: ${length}`, `Content-Length: ${length + 1}`], body };
    case 'length-and-chunked':
      return { headers: [`Content-Length: ${length}`, 'Transfer-Encoding: chunked'], body: chunked };
    case 'unknown-coding':
      return { headers: ['Transfer-Encoding: gzip, chunked'], body: chunked };
    case 'bad-chunk-size':
      return { headers: ['Transfer-Encoding: chunked'], body: Buffer.concat([Buffer.from(`zz${CRLF}`), body]) };
    case 'unterminated-chunks':
      return { headers: ['Transfer-Encoding: chunked'], body: chunked.subarray(0, chunked.length - 5) };
  }
}

const payload = fc.oneof(
  { weight: 4, arbitrary: invalidBookJson.map((value) => Buffer.from(value)) },
  { weight: 2, arbitrary: urlencodedForm.map((value) => Buffer.from(value)) },
  { weight: 2, arbitrary: multipartForm.map((value) => Buffer.from(value)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
  {
    // Over the limit in fact, not only by declaration: the JSON limit for the books routes, the form limit for /token.
    weight: 1,
    arbitrary: fc
      .constantFrom(FORM_BODY_LIMIT + 1, JSON_BODY_LIMIT + 1)
      .map((size) => Buffer.from(`{"title":"${'x'.repeat(size)}","author":"a","year":2000}`)),
  },
  {
    weight: 1,
    arbitrary: fc.constant(Buffer.from(`username=${'u'.repeat(16 * 1024 + 1)}&password=p`)),
  },
);

const damagedBody = (bookIds: readonly string[]) =>
  fc
    .record({
      start: bodyRoute(bookIds),
      type: fc.option(mediaType, { nil: undefined }),
      payload,
      framing,
      extra: fc.option(damagedHeader, { freq: 4, nil: undefined }),
    })
    .map(({ start, type, payload, framing, extra }) => {
      const framed = frame(framing, payload);
      const headers = [
        'Host: localhost',
        ...(type === undefined ? [] : [`Content-Type: ${type}`]),
        ...framed.headers,
        ...(extra === undefined ? [] : [extra]),
      ];
      const head = Buffer.from(`${start} HTTP/1.1${CRLF}${headers.join(CRLF)}${CRLF}${CRLF}`, 'latin1');
      return malformed(`body (${framing})`, Buffer.concat([head, framed.body]));
    });

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
