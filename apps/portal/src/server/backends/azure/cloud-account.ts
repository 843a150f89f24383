import 'server-only';
import type { StorageAccount as ArmStorageAccount } from '@azure/arm-storage';
import type { OwnedSettings } from '@/lib/platform/owned-settings';

/** A storage account as Azure Resource Manager reports it, in the portal's owned terms. */
export interface CloudAccount {
  name: string;
  id: string;
  resourceGroup: string;
  tags: Readonly<Record<string, string>>;
  /** The owned settings Azure states; provider-computed values (endpoints, times) are not here. */
  settings: Partial<OwnedSettings>;
}

/** The resource group named in an ARM resource id. */
function resourceGroupOf(id: string): string | undefined {
  return /\/resourceGroups\/([^/]+)\//i.exec(id)?.[1];
}

function publicAccess(value: string | undefined): boolean | undefined {
  if (value === 'Enabled') return true;
  if (value === 'Disabled') return false;
  return undefined;
}

/** Maps what the SDK answers; an account without a name or id (never seen from ARM) is skipped. */
export function toCloudAccount(account: ArmStorageAccount): CloudAccount | undefined {
  const { name, id } = account;
  if (!name || !id) return undefined;
  const tags = account.tags ?? {};
  const [skuTier, replication] = (account.sku?.name ?? '').split('_');
  const settings: Partial<OwnedSettings> = {
    location: account.location,
    resourceGroup: resourceGroupOf(id),
    kind: account.kind,
    tier: account.sku?.tier ?? skuTier,
    replication,
    accessTier: account.accessTier,
    minTlsVersion: account.minimumTlsVersion,
    httpsOnly: account.enableHttpsTrafficOnly,
    publicNetworkAccess: publicAccess(account.publicNetworkAccess),
    allowedIpRanges: account.networkRuleSet?.ipRules?.map((rule) => rule.iPAddressOrRange),
    allowNestedItemsToBePublic: account.allowBlobPublicAccess,
    sharedKeyAccess: account.allowSharedKeyAccess,
    crossTenantReplication: account.allowCrossTenantReplication,
    infrastructureEncryption: account.encryption?.requireInfrastructureEncryption,
    hierarchicalNamespace: account.isHnsEnabled,
    sftpEnabled: account.isSftpEnabled,
    nfsv3Enabled: account.enableNfsV3,
    application: tags['application'],
    environment: tags['environment'],
  };
  for (const key of Object.keys(settings) as (keyof OwnedSettings)[]) {
    if (settings[key] === undefined || settings[key] === '') delete settings[key];
  }
  return { name, id, resourceGroup: resourceGroupOf(id) ?? '', tags, settings };
}
