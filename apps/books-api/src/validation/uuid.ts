/**
 * UUID text as Pydantic v2 accepts it (it uses Rust's `uuid` crate): hyphenated,
 * 32-hex simple, braced `{...}` or `urn:uuid:`-prefixed, any case. The reasons for a
 * rejection follow that crate's wording, since Pydantic puts them in the message.
 */

type UuidParseResult = { ok: true; value: string } | { ok: false; reason: string };

const HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SIMPLE = /^[0-9a-f]{32}$/i;
const GROUP_STARTS = [0, 9, 14, 19, 24] as const;
const GROUP_LENGTHS = [8, 4, 4, 4, 12] as const;

/** Returns the canonical lower-case hyphenated form, or the crate's reason. */
export function parseUuid(text: string): UuidParseResult {
  const hyphenated = hyphenatedForm(text);
  return hyphenated === undefined
    ? { ok: false, reason: rejectionReason(text) }
    : { ok: true, value: hyphenated.toLowerCase() };
}

function hyphenatedForm(text: string): string | undefined {
  if (text.length === 32) {
    return SIMPLE.test(text)
      ? `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`
      : undefined;
  }
  let body = text;
  if (text.length === 38 && text.startsWith('{') && text.endsWith('}')) body = text.slice(1, -1);
  else if (text.length === 45 && text.startsWith('urn:uuid:')) body = text.slice(9);
  return HYPHENATED.test(body) ? body : undefined;
}

/** The `uuid` crate's `InvalidUuid::into_err`: positions are 1-based byte offsets. */
function rejectionReason(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  let inner = text;
  let offset = 0;
  let simple = true;
  if (text.length >= 2 && text.startsWith('{') && text.endsWith('}')) {
    inner = text.slice(1, -1);
    offset = 1;
    simple = false;
  } else if (text.startsWith('urn:uuid:')) {
    inner = text.slice(9);
    offset = 9;
    simple = false;
  }
  const hyphenIndexes: number[] = [];
  let byteIndex = 0;
  for (const character of inner) {
    if (character === '-') hyphenIndexes.push(byteIndex);
    else if (!/^[0-9a-fA-F]$/.test(character)) {
      return `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${character}\` at ${byteIndex + offset + 1}`;
    }
    byteIndex += Buffer.byteLength(character, 'utf8');
  }
  if (hyphenIndexes.length === 0 && simple) {
    return `invalid length: expected length 32 for simple format, found ${bytes.length}`;
  }
  if (hyphenIndexes.length !== 4) return `invalid group count: expected 5, found ${hyphenIndexes.length + 1}`;
  for (let group = 0; group < 4; group += 1) {
    const start = GROUP_STARTS[group]!;
    const next = GROUP_STARTS[group + 1]!;
    if (hyphenIndexes[group] !== next - 1) {
      return `invalid group length in group ${group}: expected ${GROUP_LENGTHS[group]}, found ${hyphenIndexes[group]! - start}`;
    }
  }
  return `invalid group length in group 4: expected 12, found ${bytes.length - GROUP_STARTS[4]}`;
}
