/**
 * Finds where and why Python's `json.loads` (CPython 3.12's C scanner, which FastAPI
 * uses) rejects a text, so a malformed body gets the same `json_invalid` entry as the
 * FastAPI original: message as Python words it, position in characters (code points).
 * Only called after JSON.parse has failed; V8's messages and positions differ from
 * Python's (and count UTF-16 units), so they are not translated but recomputed.
 */

interface JsonSyntaxError {
  message: string;
  /** Offset in code points. */
  position: number;
}

class Failure extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(reason);
  }
}

/** Python's "StopIteration(idx)": no JSON value starts at idx. */
class NoValue extends Error {
  constructor(readonly position: number) {
    super('Expecting value');
  }
}

const isWhitespace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const SIMPLE_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
/** Deep enough for any body under the size limit to fail here rather than overflow the stack. */
const MAX_DEPTH = 10_000;

class Scanner {
  private readonly chars: string[];
  private depth = 0;

  constructor(text: string) {
    this.chars = Array.from(text);
  }

  /** Returns the first error, or undefined when Python would accept the text. */
  check(): JsonSyntaxError | undefined {
    try {
      let end: number;
      try {
        end = this.value(this.skipWhitespace(0));
      } catch (error) {
        if (error instanceof NoValue) throw new Failure('Expecting value', error.position);
        throw error;
      }
      end = this.skipWhitespace(end);
      if (end !== this.chars.length) throw new Failure('Extra data', end);
      return undefined;
    } catch (error) {
      if (error instanceof Failure) return { message: error.reason, position: error.position };
      if (error instanceof RangeError) return { message: 'Maximum nesting depth exceeded', position: 0 };
      throw error;
    }
  }

  private skipWhitespace(index: number): number {
    while (isWhitespace(this.chars[index])) index += 1;
    return index;
  }

  private startsWith(word: string, index: number): boolean {
    for (let i = 0; i < word.length; i += 1) if (this.chars[index + i] !== word[i]) return false;
    return true;
  }

  /** Scans one value starting exactly at `index`; returns the index after it. */
  private value(index: number): number {
    const c = this.chars[index];
    if (c === undefined) throw new NoValue(index);
    if (c === '"') return this.string(index + 1);
    if (c === '{' || c === '[') {
      if (++this.depth > MAX_DEPTH) throw new RangeError('too deep');
      const end = c === '{' ? this.object(index + 1) : this.array(index + 1);
      this.depth -= 1;
      return end;
    }
    if (c === 'n' && this.startsWith('null', index)) return index + 4;
    if (c === 't' && this.startsWith('true', index)) return index + 4;
    if (c === 'f' && this.startsWith('false', index)) return index + 5;
    return this.number(index);
  }

  private number(start: number): number {
    let index = start;
    if (this.chars[index] === '-') index += 1;
    const first = this.chars[index];
    if (first === '0') index += 1;
    else if (first !== undefined && first >= '1' && first <= '9') {
      while (isDigit(this.chars[index])) index += 1;
    } else throw new NoValue(start);
    if (this.chars[index] === '.' && isDigit(this.chars[index + 1])) {
      index += 2;
      while (isDigit(this.chars[index])) index += 1;
    }
    if (this.chars[index] === 'e' || this.chars[index] === 'E') {
      const exponentStart = index;
      index += 1;
      if (this.chars[index] === '-' || this.chars[index] === '+') index += 1;
      const digitsStart = index;
      while (isDigit(this.chars[index])) index += 1;
      if (index === digitsStart) index = exponentStart; // not an exponent: backtrack
    }
    return index;
  }

  /** `index` is just after the opening quote. */
  private string(index: number): number {
    const begin = index - 1;
    for (;;) {
      const c = this.chars[index];
      if (c === undefined) throw new Failure('Unterminated string starting at', begin);
      if (c === '"') return index + 1;
      if (c === '\\') {
        const escaped = this.chars[index + 1];
        if (escaped === undefined) throw new Failure('Unterminated string starting at', begin);
        if (escaped === 'u') {
          const digits = this.chars.slice(index + 2, index + 6);
          if (digits.length < 4 || !digits.every(isHex)) throw new Failure('Invalid \\uXXXX escape', index + 1);
          index += 6;
          continue;
        }
        if (!SIMPLE_ESCAPES.has(escaped)) throw new Failure('Invalid \\escape', index);
        index += 2;
        continue;
      }
      if (c.codePointAt(0)! <= 0x1f) throw new Failure('Invalid control character at', index);
      index += 1;
    }
  }

  /** `index` is just after `{`. */
  private object(index: number): number {
    index = this.skipWhitespace(index);
    if (this.chars[index] === '}') return index + 1;
    for (;;) {
      if (this.chars[index] !== '"') throw new Failure('Expecting property name enclosed in double quotes', index);
      index = this.skipWhitespace(this.string(index + 1));
      if (this.chars[index] !== ':') throw new Failure("Expecting ':' delimiter", index);
      index = this.skipWhitespace(index + 1);
      index = this.skipWhitespace(this.value(index));
      if (this.chars[index] === '}') return index + 1;
      if (this.chars[index] !== ',') throw new Failure("Expecting ',' delimiter", index);
      index = this.skipWhitespace(index + 1);
    }
  }

  /** `index` is just after `[`. */
  private array(index: number): number {
    index = this.skipWhitespace(index);
    if (this.chars[index] === ']') return index + 1;
    for (;;) {
      index = this.skipWhitespace(this.value(index));
      if (this.chars[index] === ']') return index + 1;
      if (this.chars[index] !== ',') throw new Failure("Expecting ',' delimiter", index);
      index = this.skipWhitespace(index + 1);
    }
  }
}

export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  return new Scanner(text).check();
}
