import type { AddressInfo } from 'node:net';

/**
 * The origin the generator uses to reach its own server. A wildcard listen address is
 * not a destination, so it is replaced by the loopback address of the same family.
 * Returns undefined for a pipe or socket path, which the generator does not support.
 */
export function selfBaseUrl(address: AddressInfo | string | null): string | undefined {
  if (address === null || typeof address === 'string') return undefined;
  const isIPv6 = address.family === 'IPv6';
  let host = address.address;
  if (host === '0.0.0.0') host = '127.0.0.1';
  else if (host === '::') host = '::1';
  return isIPv6 ? `http://[${host}]:${address.port}` : `http://${host}:${address.port}`;
}
