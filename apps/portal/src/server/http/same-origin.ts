import 'server-only';
import { ForbiddenError } from '../model/errors';

function requestHost(request: Request): string | undefined {
  const forwarded = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  return forwarded || request.headers.get('host') || undefined;
}

/**
 * Mutations must come from the portal's own pages. Browsers always label cross-site requests
 * (Sec-Fetch-Site, Origin), so a forged form post or fetch from another site is refused here.
 * Clients that send neither header (curl, scripts) are not browsers and cannot be tricked.
 */
export function assertSameOrigin(request: Request): void {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') {
    throw new ForbiddenError('Cross-site requests are not allowed');
  }
  const origin = request.headers.get('origin');
  if (origin === null) return;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ForbiddenError('Cross-site requests are not allowed');
  }
  if (originHost !== requestHost(request)) throw new ForbiddenError('Cross-site requests are not allowed');
}
