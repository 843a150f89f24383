import { requestCredentials, resolvePrincipal } from '@/server/auth/principal';
import { loadConfig } from '@/server/runtime/config';
import { handleRoute, methodNotAllowed } from '@/server/http/handle-route';
import { accountFeed } from '@/server/live/account-feed';
import { eventStreamResponse } from '@/server/live/event-stream';
import { acquireStream } from '@/server/live/stream-limits';
import { TooManyRequestsError } from '@/server/model/errors';
import { getPlatformBackend } from '@/server/backends/select-backend';

export const dynamic = 'force-dynamic';

/**
 * GET: the live event stream (text/event-stream) of account changes, fed by the watch-fed cache.
 * Every signed-in user may read every account, so every stream carries every account's changes.
 */
export const GET = handleRoute(async (request, context) => {
  const config = loadConfig();
  const release = acquireStream(context.principal.subject, config.maxStreamsPerUser);
  if (!release) {
    throw new TooManyRequestsError(
      `At most ${config.maxStreamsPerUser} live event streams per user are open at once; close another tab first`,
      5,
    );
  }
  // The cache feeds the stream: make sure this process follows the cluster even before a page did.
  getPlatformBackend();
  const credentials = requestCredentials(request);
  return eventStreamResponse({
    feed: accountFeed(),
    subject: context.principal.subject,
    resumeFrom: request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('since'),
    stillSignedIn: async () =>
      (await resolvePrincipal(config.auth, credentials))?.subject === context.principal.subject,
    onClose: release,
    signal: request.signal,
  });
});

export const POST = methodNotAllowed(['GET']);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
