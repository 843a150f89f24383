/**
 * What a malformed request is (raw bytes and the kind of damage, printed readably in fast-check's
 * counterexamples) and the pieces every kind of damage is built from.
 */
import fc from 'fast-check';

export interface MalformedRequest {
  /** Which part is damaged; shown when a property fails. */
  readonly kind: string;
  readonly bytes: Buffer;
}

/** A request that prints readably in fast-check's counterexamples. */
export function malformed(kind: string, bytes: Buffer): MalformedRequest {
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

export const CRLF = '\r\n';
export const BOOKS = '/api/v1/books';

/** Short strings, often of the bytes that HTTP and query parsers treat specially. */
export const text = (maxLength = 24) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: fc.constantFrom(...'\r\n\t\0 :;,"\'\\/%?#&=[]{}'.split('')), maxLength }),
  );
