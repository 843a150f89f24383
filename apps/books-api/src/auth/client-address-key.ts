import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The bits of an IPv6 address that name one network (RFC 4291): one site or one subscriber line. */
const IPV6_NETWORK_BITS = 64;

/**
 * The client the login throttle counts for an address (request.ip). An IPv6 client is counted by
 * its /64 network: a single host or subscriber is usually given a whole /64 and can move through
 * its addresses at will, so counting each address would let one client rotate past the limits.
 * An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, a dual-stack socket's view of an IPv4 client)
 * is that IPv4 address, counted on its own like any other. Anything that is not an address (a
 * trusted proxy may forward any text) is counted as it is.
 */
export function clientAddressKey(address: string): string {
  // Node's own check first: ipaddr.js also reads non-standard IPv4 forms (`0x7f.1`), and only
  // real addresses should be normalised.
  if (isIP(address) === 0) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toNormalizedString()}/${IPV6_NETWORK_BITS}`);
  return `${network.toRFC5952String()}/${IPV6_NETWORK_BITS}`;
}
