import 'server-only';
import { accountNamespace, type AccountScope } from '@/lib/platform/account-scope';
import { ownedChanges, ownedFromRequest } from '@/lib/platform/owned-settings';
import { parseStorageAccountRequest } from '@/lib/platform/storage-request';
import type { Location } from '@/lib/platform/storage-rules';
import type {
  PlatformEvent,
  PlatformMode,
  ResourceGroup,
  StorageAccount,
  StorageAccountRequest,
} from '@/lib/platform/types';
import { authorize } from '../auth/guard';
import type { DryRunResult, PlatformBackend, RequestContext } from '../model/backend';
import { loadConfig } from '../runtime/config';
import { classifiedAccount, classifiedInventory, type Inventory } from './inventory/inventory';
import { claimNewName, refuseAnotherOwnersName } from './name-claims';
import { ownerOf } from '../model/ownership';
import { recordedAction } from './record-intent';
import { getIntentLedger } from '../backends/ledger/select-ledger';
import { InvalidRequestError } from '../model/errors';
import { createLimitCheck } from './create-limits';
import { createIdempotencyStore } from './idempotency';
import type { InventoryPage, InventoryQuery } from './inventory/inventory-query';
import type { ApplicationSummary, InventoryCounts } from './inventory/inventory-summary';
import { generatedAccountName, parseResourceName } from '../model/resource-name';
import { getPlatformBackend } from '../backends/select-backend';

/**
 * The platform data layer: route handlers and Server Components both call these functions,
 * which validate input, then ask whichever backend this process uses.
 */

export function platformMode(): PlatformMode {
  return getPlatformBackend().mode;
}

/** The classified inventory's read model, with whether the cluster and Azure could be read. */
export function storageAccountInventory(): Promise<Inventory> {
  return classifiedInventory();
}

/** One page of the inventory as GET /api/platform/resources answers it. */
export type InventoryPageAnswer = Omit<InventoryPage, 'start'> & Omit<Inventory, 'readModel'>;

/**
 * One page of the classified inventory, filtered and sorted on the server (inventory-query.ts);
 * from the ledger, with `clusterAvailable: false`, while the cluster cannot be read.
 */
export async function listStorageAccountPage(query: InventoryQuery): Promise<InventoryPageAnswer> {
  const { readModel, ...sources } = await classifiedInventory();
  const { items, total, next, previous } = readModel.page(query);
  return { items, total, next, previous, ...sources };
}

/** How many inventory items there are, in each state and in each class. */
export async function countStorageAccounts(): Promise<InventoryCounts> {
  return (await classifiedInventory()).readModel.counts();
}

/** The inventory summarised per application. */
export async function summariseApplications(): Promise<readonly ApplicationSummary[]> {
  return (await classifiedInventory()).readModel.applications();
}

/** One account, classified; from the ledger or Azure when the cluster has no object for it. */
export function getStorageAccount(name: string): Promise<StorageAccount> {
  return classifiedAccount(name);
}

export interface StorageAccountActivity {
  events: PlatformEvent[];
  yaml: string;
}

/** Events and the YAML of one resource: slower, secondary parts of the detail page. */
export async function getStorageAccountActivity(rawName: string): Promise<StorageAccountActivity> {
  const name = parseResourceName(rawName);
  const backend = getPlatformBackend();
  const [events, yaml] = await Promise.all([backend.events(name), backend.manifestYaml(name)]);
  return { events, yaml };
}

export function listResourceGroups(): Promise<ResourceGroup[]> {
  return getPlatformBackend().listResourceGroups();
}

/** Where Accounts live (PORTAL_ACCOUNT_SCOPE); the workflow's preview and groups follow it. */
export function accountScope(): AccountScope {
  return loadConfig().accountScope;
}

/** The Azure regions platform policy allows (PORTAL_ALLOWED_LOCATIONS), in the configured order. */
export function allowedLocations(): readonly Location[] {
  return loadConfig().allowedLocations;
}

/** Parses with the shared schema, then checks the location and (on a cluster) the group are ones the platform offers. */
async function checkedRequest(
  backend: PlatformBackend,
  input: unknown,
  context: RequestContext,
): Promise<StorageAccountRequest> {
  const parsed = parseStorageAccountRequest(input);
  if (!parsed.success) throw new InvalidRequestError(parsed.message, { fields: parsed.fields });
  const allowed = allowedLocations();
  if (!allowed.includes(parsed.request.location)) {
    throw new InvalidRequestError('The storage account request is invalid', {
      fields: { location: `"${parsed.request.location}" is not an allowed location; use one of ${allowed.join(', ')}` },
    });
  }
  // Development mode has no cluster to ask which groups exist: its groups are examples, and the
  // specification's development mode accepts a POST and answers with a generated name.
  if (backend.mode === 'mock') return parsed.request;
  // In namespaced scope an account may use only the resource groups of its own namespace.
  const namespace = accountNamespace(accountScope(), parsed.request);
  const groups = await backend.listResourceGroups();
  const group = groups.find(
    (candidate) =>
      candidate.name === parsed.request.resourceGroup && (namespace === undefined || candidate.namespace === namespace),
  );
  if (!group?.ready) {
    // No group in the namespace may mean no namespace: the cluster's dry run says so (a 400 naming it).
    if (namespace !== undefined) await backend.validate(parsed.request, context);
    const where = namespace === undefined ? '' : ` in namespace "${namespace}"`;
    throw new InvalidRequestError('The storage account request is invalid', {
      fields: { resourceGroup: `"${parsed.request.resourceGroup}" is not an approved, ready resource group${where}` },
    });
  }
  return parsed.request;
}

/** A create repeated with the same Idempotency-Key within this time answers the first result. */
export const IDEMPOTENCY_WINDOW_MS = 60 * 60 * 1000;
const createsByKey = createIdempotencyStore<StorageAccount>({ ttlMs: IDEMPOTENCY_WINDOW_MS, maxEntries: 10_000 });

export interface CreatedAccount {
  item: StorageAccount;
  /** True when this answer repeats an earlier create with the same Idempotency-Key. */
  replayed: boolean;
}

/**
 * Creates the account. With an idempotency key, the same request sent again by the same person
 * within IDEMPOTENCY_WINDOW_MS gets the first answer and never creates a second account.
 */
export async function createStorageAccount(
  input: unknown,
  context: RequestContext,
  idempotencyKey?: string,
): Promise<CreatedAccount> {
  const backend = getPlatformBackend();
  const create = async () => {
    const checked = await checkedRequest(backend, input, context);
    const request = { ...checked, name: checked.name ?? generatedAccountName(checked.application) };
    const desired = ownedFromRequest(request);
    // A name that is someone else's, or an account's that already exists, is refused before anything is recorded.
    await claimNewName(request.name, context.principal, backend);
    // Recorded only if the name is still free and the limits allow, checked in the same step as the append.
    const nameFree = refuseAnotherOwnersName(request.name, context.principal);
    const withinLimits = createLimitCheck(context.principal, loadConfig().createLimits, await backend.list());
    return recordedAction(
      { account: request.name, action: 'create', desired, changes: ownedChanges(undefined, desired) },
      context,
      () => backend.create(request, context),
      (facts) => {
        nameFree(facts);
        withinLimits(facts);
      },
    );
  };
  if (idempotencyKey === undefined) return { item: await create(), replayed: false };
  const { value, replayed } = await createsByKey.run(
    context.principal.subject,
    idempotencyKey,
    JSON.stringify(input),
    create,
  );
  return { item: value, replayed };
}

/** The review step: validated as a create would be, and a name the request gives is checked as a create checks it. */
export async function validateStorageAccount(input: unknown, context: RequestContext): Promise<DryRunResult> {
  const backend = getPlatformBackend();
  const request = await checkedRequest(backend, input, context);
  if (request.name !== undefined) await claimNewName(request.name, context.principal, backend);
  return backend.validate(request, context);
}

/** Deletes after checking who may: a requester its own accounts, an admin any. */
export async function deleteStorageAccount(rawName: string, context: RequestContext): Promise<{ name: string }> {
  const name = parseResourceName(rawName);
  const backend = getPlatformBackend();
  const [account, state] = await Promise.all([backend.get(name), getIntentLedger().desired(name)]);
  authorize(context.principal, 'delete', ownerOf(state, account));
  return recordedAction({ account: name, action: 'delete', desired: null, changes: [] }, context, () =>
    backend.delete(name, context),
  );
}
