import 'server-only';

/**
 * The portal's response headers for browsers (the contract's "Security defaults"). src/proxy.ts
 * sets them on every page and API answer; the nonce reaches Next.js (which puts it on its own
 * scripts) through the request's Content-Security-Policy header, and the root layout hands it to
 * the colour-scheme script and to emotion's style elements through NONCE_HEADER.
 */

/** The request header that carries this request's nonce to the root layout. */
export const NONCE_HEADER = 'x-nonce';

/** 16 random bytes, base64: unguessable, and new for every request. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

export interface PolicyOptions {
  /** `next dev` evaluates code for its error overlay and fast refresh; a production server never does. */
  development: boolean;
}

/**
 * Scripts only from this origin and only with this request's nonce: no inline script runs
 * without it. Style elements need the nonce too (emotion puts it on the ones MUI writes); style
 * attributes are allowed, because React renders `style` props as attributes and MUI's components
 * set some. An attribute can only style its own element: it runs no script and cannot read
 * the page, which is what the script and style-element rules keep out.
 */
export function contentSecurityPolicy(nonce: string, { development }: PolicyOptions): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${development ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** An API answer is data, never a document: nothing may load from or frame it. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** A year; no includeSubDomains, as the portal does not speak for its parent domain's other hosts. */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

export interface HeaderOptions {
  /** PORTAL_PUBLIC_URL is https: browsers are told to use nothing else. */
  https: boolean;
}

/** Headers of every page (and of the redirects and refusals in front of pages). */
export function pageHeaders(nonce: string, options: HeaderOptions & PolicyOptions): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(nonce, options),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    ...(options.https ? { 'Strict-Transport-Security': STRICT_TRANSPORT_SECURITY } : {}),
  };
}

/** Headers of every API answer: never sniffed, never stored. */
export function apiHeaders(options: HeaderOptions): Record<string, string> {
  return {
    'Content-Security-Policy': API_CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cache-Control': 'no-store',
    ...(options.https ? { 'Strict-Transport-Security': STRICT_TRANSPORT_SECURITY } : {}),
  };
}
