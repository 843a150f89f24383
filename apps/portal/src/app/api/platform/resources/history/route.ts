import { handleRoute, methodNotAllowed } from '@/server/http/handle-route';
import { accountHistory } from '@/server/services/record-intent';

export const dynamic = 'force-dynamic';

/** GET ?name=: the intent ledger's records of one account, `{"items": [...]}`, newest first. */
export const GET = handleRoute(async (request) =>
  Response.json({ items: await accountHistory(new URL(request.url).searchParams.get('name')) }),
);

export const POST = methodNotAllowed(['GET']);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
