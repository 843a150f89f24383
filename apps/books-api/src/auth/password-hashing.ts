import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import argon2 from 'argon2';

/**
 * Hashing and verification are the slow part of a login, so each is an INTERNAL span of the
 * request when tracing is on (without a tracer provider these spans are the API's no-op ones).
 * The span says only which algorithm ran and, for a verification, nothing of its outcome or input.
 */
const tracer = trace.getTracer('books-api-passwords');

function inSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
  // Only within a request's trace: the dummy hash made at start is no trace of its own.
  if (trace.getActiveSpan() === undefined) return work();
  return tracer.startActiveSpan(
    name,
    { kind: SpanKind.INTERNAL, attributes: { 'password.algorithm': 'argon2id' } },
    (span) =>
      work().then(
        (result) => {
          span.end();
          return result;
        },
        (error: unknown) => {
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          throw error;
        },
      ),
  );
}

/**
 * Argon2id cost parameters for every hash this service makes (the `hash-password`
 * command and the dummy hash used for unknown users).
 *
 * OWASP's Password Storage Cheat Sheet lists equivalent argon2id settings; we use its
 * "19 MiB memory, 2 iterations, 1 lane" row. It keeps one verification in the tens of
 * milliseconds on a small shared machine while staying at the recommended strength; the
 * other row (46 MiB, 1 iteration) costs more memory per concurrent login for the same
 * protection.
 */
export const ARGON2ID_PARAMETERS = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * The argon2id PHC hash of `password`, with the parameters in the reference order
 * (`m=...,t=...,p=...`): libargon2 and every verifier built on it (argon2-cffi, PHP, the
 * `argon2` CLI) refuse any other order, and the argon2 package writes `m,p,t`.
 * `salt` is for tests that compare with the reference implementation; by default it is random.
 */
export async function hashPassword(password: string, salt?: Buffer): Promise<string> {
  const hash = await inSpan('password hash', () =>
    argon2.hash(password, {
      type: argon2.argon2id,
      ...ARGON2ID_PARAMETERS,
      ...(salt === undefined ? {} : { salt }),
    }),
  );
  return canonicalPhc(hash);
}

/** Rewrites the parameter segment of an argon2 PHC string in the reference order m, t, p. */
function canonicalPhc(phcHash: string): string {
  return phcHash.replace(/^(\$argon2id\$v=\d+\$)([^$]+)/, (_match, prefix: string, parameters: string) => {
    const values = new Map(parameters.split(',').map((pair) => pair.split('=') as [string, string]));
    return `${prefix}m=${values.get('m')},t=${values.get('t')},p=${values.get('p')}`;
  });
}

/** Only call with a hash that `describeArgon2idHashProblem` accepted: argon2 throws on malformed ones. */
export function verifyPassword(phcHash: string, password: string): Promise<boolean> {
  return inSpan('password verify', () => argon2.verify(phcHash, password));
}

/** True when a (valid) hash was made with other cost parameters than ours, so its timing differs. */
export function usesOtherParameters(phcHash: string): boolean {
  return argon2.needsRehash(phcHash, ARGON2ID_PARAMETERS);
}

// The PHC string format: $argon2id$v=19$<m,t,p in any order>$<salt>$<hash>, salt and hash in
// unpadded standard base64. The reference order is m,t,p; the argon2 package writes m,p,t, and both are read.
const ARGON2ID_PHC =
  /^\$argon2id\$v=19\$([a-z]=\d{1,10}(?:,[a-z]=\d{1,10}){0,5})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{6,})$/;

// Refuse hashes whose verification would need an absurd amount of memory: a users file
// is configuration, but a typo such as an extra digit must not make every login allocate GiBs.
const MAX_MEMORY_KIB = 1_048_576;

/**
 * Returns why `value` is not a usable argon2id PHC hash, or null when it is. Checking the
 * shape up front matters because argon2.verify throws (rather than answering false) on a
 * malformed hash, and a login must never turn into a 500.
 */
export function describeArgon2idHashProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string holding an argon2id PHC hash';
  if (value.startsWith('$argon2i$') || value.startsWith('$argon2d$')) {
    return 'is an argon2i/argon2d hash; only argon2id is accepted (make one with `npm run --silent hash-password`)';
  }
  if (!value.startsWith('$argon2id$')) {
    return 'is not an argon2id PHC hash (expected "$argon2id$v=19$m=...,t=...,p=...$<salt>$<hash>"; make one with `npm run --silent hash-password`)';
  }
  const match = ARGON2ID_PHC.exec(value);
  if (!match) {
    return 'is not a well-formed argon2id PHC hash (expected "$argon2id$v=19$m=...,t=...,p=...$<salt>$<hash>")';
  }
  const parameters = new Map((match[1] ?? '').split(',').map((pair) => pair.split('=') as [string, string]));
  if (parameters.size !== 3 || !['m', 't', 'p'].every((name) => parameters.has(name))) {
    return 'must give exactly the parameters m, t and p';
  }
  const memory = Number(parameters.get('m'));
  const passes = Number(parameters.get('t'));
  const lanes = Number(parameters.get('p'));
  if (passes < 1) return 'has t=0; argon2id needs at least one pass';
  if (lanes < 1 || lanes > 255) return `has p=${lanes}; lanes must be between 1 and 255`;
  if (memory < 8 * lanes) return `has m=${memory}; argon2id needs at least 8 KiB per lane`;
  if (memory > MAX_MEMORY_KIB) return `has m=${memory}; more than ${MAX_MEMORY_KIB} KiB per verification is refused`;
  try {
    // Let argon2's own PHC parser have the last word on the encoding.
    argon2.needsRehash(value, ARGON2ID_PARAMETERS);
  } catch (error) {
    return `cannot be parsed (${(error as Error).message})`;
  }
  return null;
}
