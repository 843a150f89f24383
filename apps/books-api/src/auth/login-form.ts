import { RequestValidationError, type ValidationIssue } from '../errors.js';

/** The OAuth 2.0 password grant form (RFC 6749 §4.3.2), as FastAPI's OAuth2PasswordRequestForm reads it. */
export interface LoginForm {
  readonly username: string;
  readonly password: string;
  readonly scope: string;
}

const GRANT_TYPE = /^password$/;

/**
 * Reads the parsed form body (urlencoded or multipart fields) into a LoginForm, or throws the
 * 422 FastAPI would give. Like FastAPI: an empty field counts as absent, a repeated field
 * keeps its last value, and fields the grant does not use (client_id, ...) are ignored.
 */
export function parseLoginForm(body: unknown): LoginForm {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const issues: ValidationIssue[] = [];

  /** The field's text; undefined when absent (or empty) and when invalid (an issue is then recorded). */
  const text = (name: string, required: boolean): string | undefined => {
    const raw = Object.hasOwn(fields, name) ? fields[name] : undefined;
    const value: unknown = Array.isArray(raw) ? (raw as unknown[]).at(-1) : raw;
    if (value === undefined || value === '') {
      if (required) issues.push({ type: 'missing', loc: ['body', name], msg: 'Field required', input: null });
      return undefined;
    }
    if (typeof value !== 'string') {
      // A file part where text is expected; its content is not echoed back.
      issues.push({ type: 'string_type', loc: ['body', name], msg: 'Input should be a valid string', input: null });
      return undefined;
    }
    return value;
  };

  // Checked in FastAPI's parameter order, so the issues come out in the same order.
  const grantType = text('grant_type', false);
  if (grantType !== undefined && !GRANT_TYPE.test(grantType)) {
    issues.push({
      type: 'string_pattern_mismatch',
      loc: ['body', 'grant_type'],
      msg: `String should match pattern '${GRANT_TYPE.source}'`,
      input: grantType,
      ctx: { pattern: GRANT_TYPE.source },
    });
  }
  const username = text('username', true);
  const password = text('password', true);
  const scope = text('scope', false) ?? '';
  if (issues.length > 0 || username === undefined || password === undefined) throw new RequestValidationError(issues);
  return { username, password, scope };
}
