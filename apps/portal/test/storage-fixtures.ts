/**
 * One standard storage account for the portal's tests, in the shapes the portal holds it: the
 * create request (through the request schema, so its defaults are the schema's) and the intent the
 * ledger records for it. A test names only what it changes.
 */
import type { OwnedSettings } from '../src/lib/platform/owned-settings';
import {
  parseStorageAccountRequest,
  type StorageAccountRequest,
  type StorageAccountRequestInput,
} from '../src/lib/platform/storage-request';

/** A standard StorageV2 account of the webshop's dev environment: private, HTTPS only, access tier Hot. */
export function storageRequest(overrides: Partial<StorageAccountRequestInput> = {}): StorageAccountRequest {
  const parsed = parseStorageAccountRequest({
    name: 'stshop01',
    application: 'webshop',
    environment: 'dev',
    resourceGroup: 'rg-books-dev',
    location: 'westeurope',
    accessTier: 'Hot',
    ...overrides,
  });
  if (!parsed.success) throw new Error(`${parsed.message}: ${JSON.stringify(parsed.fields)}`);
  return parsed.request;
}

/** What the ledger records as intent when the portal creates the standard account. */
export const STANDARD_INTENT: Readonly<OwnedSettings> = {
  location: 'westeurope',
  resourceGroup: 'rg-books-dev',
  kind: 'StorageV2',
  tier: 'Standard',
  replication: 'LRS',
  accessTier: 'Hot',
  minTlsVersion: 'TLS1_2',
  httpsOnly: true,
  publicNetworkAccess: false,
  allowedIpRanges: [],
  allowNestedItemsToBePublic: false,
  sharedKeyAccess: true,
  crossTenantReplication: false,
  infrastructureEncryption: true,
  hierarchicalNamespace: false,
  sftpEnabled: false,
  nfsv3Enabled: false,
  application: 'webshop',
  environment: 'dev',
};
