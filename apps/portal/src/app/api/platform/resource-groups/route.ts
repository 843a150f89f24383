import { handleRoute, methodNotAllowed } from '@/server/http/handle-route';
import { listResourceGroups } from '@/server/services/storage-accounts';

export const dynamic = 'force-dynamic';

/** GET: the resource groups a storage account may be placed in, `{"items": [...]}`. */
export const GET = handleRoute(async () => Response.json({ items: await listResourceGroups() }));

export const POST = methodNotAllowed(['GET']);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
