/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 7235), or null. */
export function bearerToken(authorization: string): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
  return match?.[1] ?? null;
}
