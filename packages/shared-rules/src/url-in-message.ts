/**
 * How a configuration error quotes a URL it refuses: scheme, host, port and path only. User,
 * password, query (libpq URLs may carry ?password=) and fragment are never quoted, and a value
 * that does not parse as a URL with a host is not quoted at all: where its credentials would be
 * is then anyone's guess (`user:secret@host/db` parses as the scheme "user:" with a path that
 * holds the password).
 */
export function urlInMessage(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.host === '' || url.pathname.includes('@')) return undefined;
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** `, got "<the URL without credentials>"`, or nothing when the value cannot be quoted safely. */
export function gotUrl(raw: string): string {
  const shown = urlInMessage(raw);
  return shown === undefined ? ' (the value is not shown: it may hold credentials)' : `, got "${shown}"`;
}
