import type { StorageAccount } from '@/lib/platform/types';
import { formatAge } from './format';
import type { ResourceRow } from './ResourceTable';

export function toResourceRow(account: StorageAccount, now: number): ResourceRow {
  const row: ResourceRow = { name: account.name, state: account.state, age: formatAge(account.createdAt, now) };
  if (account.namespace) row.namespace = account.namespace;
  if (account.application) row.application = account.application;
  if (account.resourceGroup) row.resourceGroup = account.resourceGroup;
  if (account.location) row.location = account.location;
  if (account.sku) row.sku = account.sku;
  if (account.stateDetail) row.stateDetail = account.stateDetail;
  if (account.classification) row.classification = account.classification;
  return row;
}
