import { accountJson } from '@/server/http/account-json';
import { handleRoute, methodNotAllowed } from '@/server/http/handle-route';
import { resyncStorageAccount } from '@/server/services/account-changes';

export const dynamic = 'force-dynamic';

/** POST ?name=: asks Crossplane to reconcile the account now; 202 because it happens afterwards. */
export const POST = handleRoute(
  async (request, context) => {
    const item = await resyncStorageAccount(new URL(request.url).searchParams.get('name'), context);
    return Response.json({ item: accountJson(item) }, { status: 202 });
  },
  { mutation: true, action: 'resync' },
);

export const GET = methodNotAllowed(['POST']);
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
