import { handleRoute, methodNotAllowed } from '@/server/http/handle-route';
import { accountJson } from '@/server/http/account-json';
import { readJsonBody } from '@/server/http/json-body';
import { changeStorageAccount } from '@/server/services/account-changes';
import { parseInventoryQuery } from '@/server/services/inventory/inventory-query';
import {
  createStorageAccount,
  deleteStorageAccount,
  getStorageAccount,
  listStorageAccountPage,
  validateStorageAccount,
} from '@/server/services/storage-accounts';

export const dynamic = 'force-dynamic';

/**
 * GET: a page of the classified inventory, `?limit=&cursor=&q=&state=&class=&sort=` →
 * `{"items", "total", "next", "previous", "clusterAvailable", "observedAt", "cloud"}` (from the
 * ledger while the cluster is unreachable); or one resource with `?name=` as `{"item": {...}}`.
 */
export const GET = handleRoute(async (request) => {
  const params = new URL(request.url).searchParams;
  const name = params.get('name');
  if (name !== null) return Response.json({ item: accountJson(await getStorageAccount(name)) });
  const page = await listStorageAccountPage(parseInventoryQuery(params));
  return Response.json({ ...page, items: page.items.map(accountJson) });
});

/**
 * POST: create from a storage request; `?dryRun=true` only validates it server-side. With an
 * `Idempotency-Key` header a repeated request answers the first result (`Idempotent-Replayed: true`).
 */
export const POST = handleRoute(
  async (request, context) => {
    const body = await readJsonBody(request);
    if (new URL(request.url).searchParams.get('dryRun') === 'true') {
      return Response.json(await validateStorageAccount(body, context));
    }
    const key = request.headers.get('idempotency-key') ?? undefined;
    const { item, replayed } = await createStorageAccount(body, context, key);
    const headers: Record<string, string> = { Location: `/resources/${item.name}` };
    if (replayed) headers['Idempotent-Replayed'] = 'true';
    return Response.json({ item: accountJson(item) }, { status: 201, headers });
  },
  { mutation: true, action: 'create' },
);

/** DELETE ?name=: starts deletion of the resource and the Azure account behind it. */
export const DELETE = handleRoute(
  async (request, context) => {
    const item = await deleteStorageAccount(new URL(request.url).searchParams.get('name') ?? '', context);
    return Response.json({ item });
  },
  { mutation: true, action: 'delete' },
);

/** PATCH ?name=: changes settings that can change in place; `?dryRun=true` has the cluster check it only. */
export const PATCH = handleRoute(
  async (request, context) => {
    const url = new URL(request.url);
    const result = await changeStorageAccount(url.searchParams.get('name'), await readJsonBody(request), context, {
      dryRun: url.searchParams.get('dryRun') === 'true',
    });
    return Response.json({ ...result, item: accountJson(result.item) });
  },
  { mutation: true },
);

export const PUT = methodNotAllowed(['GET', 'POST', 'PATCH', 'DELETE']);
