import { accountJson } from '@/server/http/account-json';
import { handleRoute, methodNotAllowed } from '@/server/http/handle-route';
import { readJsonBody } from '@/server/http/json-body';
import { remediate } from '@/server/services/remediation';

export const dynamic = 'force-dynamic';

/**
 * POST ?name=: `{"action","resourceVersion"?}` brings an account back in line with intent, or intent
 * in line with it. `?dryRun=true` is the review step: the cluster checks it, nothing is recorded or
 * changed (200 `{"item","changes","write"}`); otherwise 202 `{"item","changes"}`.
 */
export const POST = handleRoute(
  async (request, context) => {
    const url = new URL(request.url);
    const dryRun = url.searchParams.get('dryRun') === 'true';
    const result = await remediate(url.searchParams.get('name'), await readJsonBody(request), context, { dryRun });
    if (dryRun) return Response.json({ ...result, item: accountJson(result.item) });
    return Response.json({ item: accountJson(result.item), changes: result.changes }, { status: 202 });
  },
  { mutation: true },
);

export const GET = methodNotAllowed(['POST']);
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
