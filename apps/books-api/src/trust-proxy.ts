import { isIP } from 'node:net';

/**
 * Which proxies in front of the API may say who the client is (`X-Forwarded-For`), as
 * TRUST_PROXY names them. The client address the login throttle counts and the request log
 * shows is the socket's when none is trusted.
 */
export type TrustedProxies =
  | { readonly kind: 'none' }
  /** The nearest `hops` addresses (the socket's, then X-Forwarded-For from the right) are proxies. */
  | { readonly kind: 'hops'; readonly hops: number }
  /** Addresses, CIDR ranges or @fastify/proxy-addr's range names (loopback, linklocal, uniquelocal). */
  | { readonly kind: 'addresses'; readonly addresses: readonly string[] };

/** The range names @fastify/proxy-addr (Fastify's trustProxy) understands. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const MAX_HOPS = 10;

/** Why `entry` is not an address, CIDR range or range name, or null when it is one. */
function entryProblem(entry: string): string | null {
  if (RANGE_NAMES.has(entry)) return null;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return `"${entry}" is not an IP address or CIDR range`;
  if (prefix === undefined) return null;
  const bits = version === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return `"${entry}" has a prefix length outside 0-${bits}`;
  return null;
}

/**
 * Parses TRUST_PROXY: empty means none; a whole number 1-10 is a hop count; otherwise a
 * comma-separated list of addresses, CIDR ranges and range names. `true` (trust anyone) is
 * refused: every client could then choose the address it is counted under. Throws a reason.
 */
export function parseTrustedProxies(raw: string): TrustedProxies {
  const text = raw.trim();
  if (text === '') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > MAX_HOPS) throw new Error(`a hop count must be from 1 to ${MAX_HOPS}, got "${raw}"`);
    return { kind: 'hops', hops };
  }
  if (/^(true|yes|on|all|\*)$/i.test(text)) {
    throw new Error(
      `"${raw}" would trust every client to name its own address; give the proxies' addresses or CIDR ranges, or a hop count`,
    );
  }
  const addresses = text.split(',').map((entry) => entry.trim());
  for (const entry of addresses) {
    const problem = entry === '' ? 'has an empty entry' : entryProblem(entry);
    if (problem !== null) {
      throw new Error(
        `${problem}; expected a hop count or comma-separated addresses, CIDR ranges or loopback/linklocal/uniquelocal`,
      );
    }
  }
  return { kind: 'addresses', addresses };
}

/** The trust function or list for Fastify's `trustProxy` option. */
export function fastifyTrustProxy(
  trusted: TrustedProxies,
): false | readonly string[] | ((address: string, hop: number) => boolean) {
  switch (trusted.kind) {
    case 'none':
      return false;
    case 'addresses':
      return trusted.addresses;
    case 'hops': {
      // Fastify ignores a plain number (a direct client could then forge X-Forwarded-For); a hop
      // count is a deployment's statement that the API is reachable only through that many
      // proxies (docs/security.md), so it is given to Fastify as the trust function it stands for.
      const { hops } = trusted;
      return (_address, hop) => hop < hops;
    }
  }
}
