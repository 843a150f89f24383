import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from '../errors.js';

/**
 * Pydantic v2's error entries: the few kinds the contract's 422 table names, built in
 * one place so every part of a request (path, query, body, form) words them alike.
 */

type Loc = ValidationIssue['loc'];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** An issue kind whose message never varies: only where it happened and what was sent. */
const fixedIssue =
  (type: string, msg: string) =>
  (loc: Loc, input: unknown): ValidationIssue => ({ type, loc, msg, input });

export const issues = {
  missing: fixedIssue('missing', 'Field required'),
  extraForbidden: fixedIssue('extra_forbidden', 'Extra inputs are not permitted'),
  modelAttributesType: fixedIssue(
    'model_attributes_type',
    'Input should be a valid dictionary or object to extract fields from',
  ),
  intParsing: fixedIssue('int_parsing', 'Input should be a valid integer, unable to parse string as an integer'),
  floatParsing: fixedIssue('float_parsing', 'Input should be a valid number, unable to parse string as a number'),
  boolParsing: fixedIssue('bool_parsing', 'Input should be a valid boolean, unable to interpret input'),
  uuidParsing: (loc: Loc, input: unknown, reason: string): ValidationIssue => ({
    type: 'uuid_parsing',
    loc,
    msg: `Input should be a valid UUID, ${reason}`,
    input,
    ctx: { error: reason },
  }),
};

const TYPE_ISSUES: Record<string, { type: string; msg: string }> = {
  string: { type: 'string_type', msg: 'Input should be a valid string' },
  integer: { type: 'int_type', msg: 'Input should be a valid integer' },
  number: { type: 'float_type', msg: 'Input should be a valid number' },
  boolean: { type: 'bool_type', msg: 'Input should be a valid boolean' },
  array: { type: 'list_type', msg: 'Input should be a valid list' },
  object: { type: 'dict_type', msg: 'Input should be a valid dictionary' },
  null: { type: 'none_required', msg: 'Input should be None' },
};

const BOUND_ISSUES = {
  minimum: ['greater_than_equal', 'greater than or equal to', 'ge'],
  maximum: ['less_than_equal', 'less than or equal to', 'le'],
  exclusiveMinimum: ['greater_than', 'greater than', 'gt'],
  exclusiveMaximum: ['less_than', 'less than', 'lt'],
} as const;

const quote = (value: unknown) => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value));

/**
 * Maps one Ajv error about a value (not `required` / `additionalProperties`, which
 * need the parent object) to a Pydantic entry. `input` is what the client sent.
 */
export function issueFromAjvError(error: ErrorObject, loc: Loc, input: unknown): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const expected = String(Array.isArray(params['type']) ? params['type'][0] : params['type']);
      const known = TYPE_ISSUES[expected] ?? { type: `${expected}_type`, msg: `Input should be a valid ${expected}` };
      return { type: known.type, loc, msg: known.msg, input };
    }
    case 'minLength': {
      const min = Number(params['limit']);
      return {
        type: 'string_too_short',
        loc,
        msg: `String should have at least ${plural(min, 'character')}`,
        input,
        ctx: { min_length: min },
      };
    }
    case 'maxLength': {
      const max = Number(params['limit']);
      return {
        type: 'string_too_long',
        loc,
        msg: `String should have at most ${plural(max, 'character')}`,
        input,
        ctx: { max_length: max },
      };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const limit = params['limit'];
      const [type, words, key] = BOUND_ISSUES[error.keyword];
      return { type, loc, msg: `Input should be ${words} ${String(limit)}`, input, ctx: { [key]: limit } };
    }
    case 'minItems':
    case 'maxItems': {
      const limit = Number(params['limit']);
      const [type, words, key] =
        error.keyword === 'minItems' ? ['too_short', 'at least', 'min_length'] : ['too_long', 'at most', 'max_length'];
      const actual = Array.isArray(input) ? input.length : 0;
      return {
        type,
        loc,
        msg: `List should have ${words} ${plural(limit, 'item')} after validation, not ${actual}`,
        input,
        ctx: { field_type: 'List', [key]: limit, actual_length: actual },
      };
    }
    case 'pattern':
      return {
        type: 'string_pattern_mismatch',
        loc,
        msg: `String should match pattern '${String(params['pattern'])}'`,
        input,
        ctx: { pattern: params['pattern'] },
      };
    case 'enum':
    case 'const': {
      const allowed = (
        error.keyword === 'enum' ? (params['allowedValues'] as unknown[]) : [params['allowedValue']]
      ).map(quote);
      const expected =
        allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed.join('');
      return { type: 'enum', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
    }
    default:
      return { type: 'value_error', loc, msg: `Value error, ${error.message ?? 'invalid value'}`, input };
  }
}
