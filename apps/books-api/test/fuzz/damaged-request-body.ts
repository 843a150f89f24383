/**
 * Requests whose body no body-reading route may accept: invalid book JSON, urlencoded and
 * multipart forms, wrong media types and oversized payloads, each framed correctly or in one of the
 * ways an HTTP parser must refuse (Content-Length / Transfer-Encoding). Bodies go to existing
 * books only when they are invalid, so the store must never change.
 */
import fc from 'fast-check';
import { damagedHeader } from './damaged-request-head.js';
import { BOOKS, CRLF, malformed, text } from './malformed-request.js';

/** The JSON body limit of the books routes and the form limit of /token (src/app.ts, src/routes/token.ts). */
const JSON_BODY_LIMIT = 1024 * 1024;
const FORM_BODY_LIMIT = 64 * 1024;

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

export const damagedBody = (bookIds: readonly string[]) =>
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
