/**
 * Human words for the raw values Azure and Crossplane use ("TLS1_2" → "TLS 1.2"), and links
 * built from what the platform knows. Pure: used by Server and Client Components alike.
 */

import { ownValue } from '../own-value';

const TLS_VERSION = /^TLS(\d)_(\d)$/;

/** "TLS1_2" → "TLS 1.2"; anything unexpected is shown as it is. */
export function formatTlsVersion(value: string | undefined): string {
  if (!value) return '—';
  const match = TLS_VERSION.exec(value);
  return match ? `TLS ${match[1]}.${match[2]}` : value;
}

const REPLICATION: Record<string, string> = {
  LRS: 'Locally redundant (LRS)',
  ZRS: 'Zone-redundant (ZRS)',
  GRS: 'Geo-redundant (GRS)',
  RAGRS: 'Read-access geo-redundant (RA-GRS)',
  GZRS: 'Geo-zone-redundant (GZRS)',
  RAGZRS: 'Read-access geo-zone-redundant (RA-GZRS)',
};

export function formatReplication(value: string | undefined): string {
  if (!value) return '—';
  return ownValue(REPLICATION, value) ?? value;
}

/** "Standard_LRS" → "Standard, locally redundant (LRS)". */
export function formatSku(value: string | undefined): string {
  if (!value) return '—';
  const [tier, replication] = value.split('_');
  const words = ownValue(REPLICATION, replication);
  if (!tier || !words) return value;
  return `${tier}, ${words.replace(/^./, (c) => c.toLowerCase())}`;
}

const KINDS: Record<string, string> = {
  StorageV2: 'General-purpose v2 (StorageV2)',
  Storage: 'General-purpose v1 (Storage)',
  BlobStorage: 'Blob storage (legacy)',
  BlockBlobStorage: 'Premium block blobs (BlockBlobStorage)',
  FileStorage: 'Premium file shares (FileStorage)',
};

export function formatAccountKind(value: string | undefined): string {
  if (!value) return '—';
  return ownValue(KINDS, value) ?? value;
}

export const yesNo = (value: boolean | undefined): string => (value === undefined ? '—' : value ? 'Yes' : 'No');

/** One value of any setting, in words: lists joined, booleans as Yes/No, TLS spelled out. */
export function formatSetting(field: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return yesNo(value);
  if (Array.isArray(value)) return value.length === 0 ? 'None' : value.map(String).join(', ');
  if (typeof value !== 'string') return typeof value === 'number' ? String(value) : JSON.stringify(value);
  if (field === 'minTlsVersion') return formatTlsVersion(value);
  if (field === 'replication' || field === 'replicationType') return formatReplication(value);
  if (field === 'kind' || field === 'accountKind') return formatAccountKind(value);
  return value;
}

/** The Azure resource id's form: /subscriptions/<id>/resourceGroups/<group>/providers/<...>. */
const AZURE_RESOURCE_ID = /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/[^/]+\/[^/]+\/[^/]+$/i;

/**
 * The account's page in the Azure portal, from the resource id Azure reported (it names the
 * subscription, the group and the external name). Before Azure has reported an id, the portal's
 * list of storage accounts is the closest page there is.
 */
export function azurePortalUrl(account: { observed: { id?: string } }): string {
  const id = account.observed.id;
  if (id && AZURE_RESOURCE_ID.test(id)) return `https://portal.azure.com/#@/resource${id}/overview`;
  return 'https://portal.azure.com/#browse/Microsoft.Storage%2FStorageAccounts';
}
