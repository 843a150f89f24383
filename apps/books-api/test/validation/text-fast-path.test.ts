import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { BookIdParams, ListQuery, SearchQuery } from '../../src/schemas/book.js';
import { RequestValidationError } from '../../src/errors.js';
import {
  compileRequestValidator,
  createRequestAjv,
  type RequestValidator,
  type RouteSchemas,
} from '../../src/validation/request-validator.js';
import { textFastPath } from '../../src/validation/text-fast-path.js';
import { uuidLikeText } from './uuid-texts.js';

// Ids and paging values that the text parser proves valid skip the fields' Ajv checks. These
// properties hold every answer of the shortcut validator (values, and the 422's issues byte for
// byte) to the same validator with the shortcuts off.

const ajv = createRequestAjv();

function both(schemas: RouteSchemas): [RequestValidator, RequestValidator] {
  const fast = compileRequestValidator(ajv, schemas);
  const general = compileRequestValidator(ajv, schemas, { fastPaths: false });
  assert.ok(fast !== undefined && general !== undefined);
  return [fast, general];
}

/** What a client sees: the validated parts, or the issues of the 422 as JSON text. */
function answer(validator: RequestValidator, params: unknown, query: unknown): string {
  try {
    return JSON.stringify({ ok: validator(params, query, undefined, undefined) });
  } catch (error) {
    assert.ok(error instanceof RequestValidationError);
    return JSON.stringify({ issues: error.issues });
  }
}

test('the shortcuts apply to the ids and the paging values, and not to a field with text rules', () => {
  assert.ok(textFastPath(BookIdParams.properties.book_id) !== undefined);
  assert.ok(textFastPath(ListQuery.properties.skip) !== undefined);
  assert.ok(textFastPath(ListQuery.properties.limit) !== undefined);
  assert.equal(textFastPath(SearchQuery.properties.q), undefined);
  // Rules the parser does not prove keep Ajv.
  assert.equal(textFastPath({ type: 'string', format: 'uuid', pattern: '^0' }), undefined);
  assert.equal(textFastPath({ type: 'integer', multipleOf: 2 }), undefined);
  assert.equal(textFastPath({ type: 'integer', exclusiveMinimum: 0 }), undefined);
});

test('an id in every accepted and rejected form gets the general path answer', () => {
  const [fast, general] = both({ params: BookIdParams });
  fc.assert(
    fc.property(fc.oneof(uuidLikeText, fc.string()), (id) => {
      assert.equal(answer(fast, { book_id: id }, undefined), answer(general, { book_id: id }, undefined));
    }),
    { numRuns: 5000 },
  );
  const canonical = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
  assert.equal(
    answer(fast, { book_id: canonical.toUpperCase() }, undefined),
    JSON.stringify({ ok: { params: { book_id: canonical } } }),
  );
});

/** Integers near the bounds in the forms the lax parser reads, and text it refuses. */
const integerText = fc.oneof(
  fc.integer({ min: -3, max: 103 }).map(String),
  fc.integer({ min: -3, max: 103 }).map((n) => ` ${n}.0 `),
  fc.constantFrom('0', '-0', '+0', '00', '1', '100', '101', '1_00', '0100', '1e2', '20.5', '', ' ', 'x', '٣'),
  fc.stringMatching(/^[+-]?\d{1,20}$/),
  fc.string({ maxLength: 6 }),
);

const queryValue = fc.oneof(
  { weight: 4, arbitrary: integerText },
  // A repeated parameter: the last one counts.
  { weight: 1, arbitrary: fc.array(integerText, { minLength: 1, maxLength: 3 }) },
);

test('paging values at, inside and beyond the bounds, repeated or absent, get the general path answer', () => {
  const list = both({ querystring: ListQuery });
  const search = both({ querystring: SearchQuery });
  fc.assert(
    fc.property(
      fc.record({ skip: queryValue, limit: queryValue, q: fc.string({ maxLength: 3 }) }, { requiredKeys: [] }),
      (query) => {
        for (const [fast, general] of [list, search]) {
          assert.equal(answer(fast, undefined, query), answer(general, undefined, query));
        }
      },
    ),
    { numRuns: 5000 },
  );
  for (const text of ['-1', '0', '1', '100', '101', '9007199254740993', '1e3']) {
    const query = { skip: text, limit: text };
    assert.equal(answer(list[0], undefined, query), answer(list[1], undefined, query), text);
  }
});
