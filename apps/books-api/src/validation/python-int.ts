/**
 * Python's `int(text)` for a string in base 10, so a header the contract calls "an integer"
 * is read exactly as the FastAPI original reads it. Like CPython:
 * - every non-ASCII white-space character becomes a space, and every non-ASCII decimal digit
 *   (general category Nd: Arabic-Indic, fullwidth, mathematical ...) becomes its ASCII digit;
 * - ASCII white space (space, \t, \n, \v, \f, \r) around the number is ignored;
 * - an optional sign, then digits with single underscores allowed between them (`5_03`);
 * - leading zeros are fine (`0503`); fractions, exponents, hex and inner spaces are not;
 * - more than 4300 digits is refused (Python's default limit on converting long strings).
 * Returns the value, or undefined where `int()` raises ValueError.
 */
export function parsePythonInt(text: string): bigint | undefined {
  let ascii = '';
  for (const character of text) {
    if (character.charCodeAt(0) < 0x80) ascii += character;
    else if (NON_ASCII_SPACE.test(character)) ascii += ' ';
    else {
      const digit = decimalDigitValue(character);
      if (digit === undefined) return undefined;
      ascii += String(digit);
    }
  }
  const match = PYTHON_INTEGER.exec(ascii);
  if (match === null) return undefined;
  const sign = match[1] ?? '';
  const digits = (match[2] ?? '').replaceAll('_', '');
  if (digits.length > MAX_STR_DIGITS) return undefined;
  return BigInt(sign + digits);
}

/** sys.get_int_max_str_digits() by default. */
const MAX_STR_DIGITS = 4300;

const PYTHON_INTEGER = /^[ \t\n\v\f\r]*([+-]?)([0-9]+(?:_[0-9]+)*)[ \t\n\v\f\r]*$/;

// Outside ASCII, Unicode's White_Space property is exactly what Python's str.isspace() accepts.
const NON_ASCII_SPACE = /^\p{White_Space}$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;

/**
 * The value of a decimal digit: Unicode encodes every set of Nd digits as a contiguous run
 * 0..9, and adjacent sets (the mathematical digits) are whole runs of ten, so the distance
 * from the start of the contiguous Nd block, modulo 10, is the digit's value.
 */
function decimalDigitValue(character: string): number | undefined {
  if (!DECIMAL_DIGIT.test(character)) return undefined;
  const codePoint = character.codePointAt(0)!;
  let start = codePoint;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
  return (codePoint - start) % 10;
}
