import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { parseLoginForm, type LoginForm } from '../auth/login-form.js';
import { userNameForLog } from '../auth/user-name.js';
import { createVerificationSlots, VerificationQueueFullError } from '../auth/verification-slots.js';
import {
  incorrectCredentials,
  loginVerificationsBusy,
  payloadTooLarge,
  tokenLoginNotConfigured,
  tooManyLoginAttempts,
} from '../errors.js';
import { registerMultipartFormBody } from '../plugins/app/multipart-form-body.js';
import { errorResponses } from '../schemas/errors.js';

// A login form is a few short fields; anything bigger is not a login.
const FORM_BODY_LIMIT = 64 * 1024;
// No user name or password comes near this; it bounds what one field can make us hash or log.
const FORM_FIELD_LIMIT = 16 * 1024;
// The grant has four fields; a few more (client_id, ...) are read and ignored, as FastAPI does.
const FORM_MAX_FIELDS = 10;
const FORM_MEDIA_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** The form as documented (FastAPI's OAuth2PasswordRequestForm); parseLoginForm applies it. */
const LoginFormSchema = Type.Object(
  {
    grant_type: Type.Optional(Type.String({ pattern: '^password$', description: 'When present, must be "password"' })),
    username: Type.String(),
    password: Type.String({ format: 'password' }),
    scope: Type.Optional(
      Type.String({ default: '', description: 'Accepted and ignored: the roles come from the users file' }),
    ),
  },
  { title: 'Body_login_token_post' },
);

const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'Signed JWT (claims sub, roles, iss, aud, iat, exp)' }),
    token_type: Type.Literal('bearer'),
    expires_in: Type.Integer({ description: 'Seconds until expiry' }),
  },
  { title: 'TokenResponse' },
);

const httpError = (description: string) => ({ ...Type.Ref('HTTPError'), description });

function isFormRequest(request: FastifyRequest): boolean {
  const mediaType = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
  return mediaType === undefined || FORM_MEDIA_TYPES.includes(mediaType);
}

/**
 * POST /token: the OAuth 2.0 password grant. The form parsers and the limiters are
 * registered in this plugin's scope only, so the books routes keep answering 415 to forms.
 */
export default async function tokenRoutes(app: FastifyInstance) {
  // FastAPI reads a form route's body only when it is a form: any other body (JSON, text)
  // is not read at all and the form's fields are missing (422), never a 415 or a JSON error.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
  registerMultipartFormBody(app, {
    totalBytes: FORM_BODY_LIMIT,
    fields: FORM_MAX_FIELDS,
    fieldBytes: FORM_FIELD_LIMIT,
  });
  const throttle = app.loginThrottle;
  const verifications = createVerificationSlots(app.auth.settings.passwordVerifications);
  const { credentials } = app.auth;

  // Runs before the schema check of the validation plugin: the form is read the way FastAPI
  // reads it (an empty field is absent, a repeated one keeps its last value, unused fields
  // are dropped) and a bad one is the 422 FastAPI gives. A body of another media type
  // counts as an empty form, so its 422 lists username and password as missing.
  app.addHook('preValidation', async function readLoginForm(request) {
    if (!isFormRequest(request)) {
      request.body = parseLoginForm(undefined);
      return;
    }
    // The multipart parser enforces the field limit while reading; a urlencoded form is read whole first.
    const oversized = Object.entries(request.body ?? {}).find(
      ([, value]) => typeof value === 'string' && Buffer.byteLength(value) > FORM_FIELD_LIMIT,
    );
    if (oversized !== undefined) {
      throw payloadTooLarge(FORM_BODY_LIMIT, `the field '${oversized[0]}' is over ${FORM_FIELD_LIMIT} bytes`);
    }
    request.body = parseLoginForm(request.body);
  });

  app.post(
    '/token',
    {
      bodyLimit: FORM_BODY_LIMIT,
      schema: {
        operationId: 'login',
        summary: 'Log in with the OAuth 2.0 password grant and get a bearer token',
        description:
          'Checks the user name and password against the users file and answers a signed JWT that ' +
          'expires after 900 seconds. Failed logins are throttled per (user name, client), per client and per user name.',
        tags: ['auth'],
        consumes: FORM_MEDIA_TYPES,
        body: LoginFormSchema,
        response: {
          200: {
            ...TokenResponse,
            description: 'A bearer token',
            headers: {
              'Cache-Control': { type: 'string', const: 'no-store', description: 'Never stored (RFC 6749 §5.1)' },
              Pragma: { type: 'string', const: 'no-cache', description: 'For HTTP/1.0 caches' },
            },
          },
          400: httpError('Malformed multipart form'),
          401: httpError('Incorrect credentials (`WWW-Authenticate: Bearer`)'),
          413: httpError('Form larger than the login form limit'),
          422: { ...Type.Ref('HTTPValidationError'), description: 'Validation Error' },
          429: httpError('Too many failed logins for this user name, client or pair (`Retry-After`)'),
          503: {
            ...httpError(
              'Token login is not configured (JWT_SECRET_KEY unset); or too many logins are being checked, or ' +
                '(DATABASE_URL) the database that counts failed logins is unavailable, both with `Retry-After`',
            ),
            headers: { 'Retry-After': { type: 'integer', minimum: 0, description: 'Seconds to wait before retrying' } },
          },
          ...errorResponses.methodNotAllowed,
        },
      },
      onRequest: async function refuseWithoutTokenLogin() {
        if (app.auth.tokens === null) throw tokenLoginNotConfigured();
      },
    },
    async function issueToken(request, reply) {
      const form = request.body as LoginForm;
      const attempt = { username: form.username, client: request.ip };
      // Counted before the password is checked, so parallel guesses cannot all pass a check-then-count.
      const reservation = await throttle.reserve(attempt);
      if (!reservation.granted) throw tooManyLoginAttempts(reservation.retryAfterSeconds);
      let account;
      try {
        account = await verifications.run(() => credentials.check(form.username, form.password));
      } catch (error) {
        // Not judged (queue full, or a fault): the attempt does not count.
        await throttle.release(attempt);
        if (error instanceof VerificationQueueFullError) {
          throw loginVerificationsBusy();
        }
        throw error;
      }
      if (account === null) {
        request.log.info({ username: userNameForLog(form.username) }, 'failed login');
        throw incorrectCredentials();
      }
      await throttle.release(attempt);
      // Checked in onRequest; read again so the type narrows.
      const tokens = app.auth.tokens;
      if (tokens === null) throw tokenLoginNotConfigured();
      // RFC 6749 §5.1: a token answer must not be stored by the browser or any cache on the way.
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      return tokens.issue({ sub: account.username, roles: account.roles });
    },
  );
}
