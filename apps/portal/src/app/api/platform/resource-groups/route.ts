import { handleRoute } from '@/server/http/handle-route';
import { listResourceGroups } from '@/server/platform/storage-accounts';

export const dynamic = 'force-dynamic';

/** GET: the resource groups a storage account may be placed in, `{"items": [...]}`. */
export const GET = handleRoute(async () => Response.json({ items: await listResourceGroups() }));
