/**
 * The simulated Azure subscription both stand-ins share: storage accounts as Azure Resource Manager
 * holds them (Microsoft.Storage/storageAccounts, api-version 2023-05-01 shapes). The simulated
 * Crossplane provider writes what it reconciles here and reads it back as status.atProvider; the
 * ARM stand-in serves it, so an edit made "in Azure" (an ARM PATCH) is seen by both.
 */
import { isRecord } from './validation.js';

export interface ArmNetworkAcls {
  defaultAction: 'Allow' | 'Deny';
  bypass: string;
  ipRules: { value: string; action: 'Allow' }[];
  virtualNetworkRules: unknown[];
}

/** The parts of an ARM storage account the stand-ins model; everything else ARM has is left out. */
export interface ArmStorageAccount {
  id: string;
  name: string;
  type: 'Microsoft.Storage/storageAccounts';
  location: string;
  kind: string;
  sku: { name: string; tier: string };
  tags: Record<string, string>;
  properties: {
    provisioningState: 'Succeeded';
    creationTime: string;
    primaryLocation: string;
    statusOfPrimary: 'available';
    secondaryLocation?: string;
    statusOfSecondary?: 'available';
    primaryEndpoints: Record<string, string>;
    accessTier?: string;
    minimumTlsVersion: string;
    supportsHttpsTrafficOnly: boolean;
    publicNetworkAccess: 'Enabled' | 'Disabled';
    networkAcls: ArmNetworkAcls;
    allowBlobPublicAccess: boolean;
    allowSharedKeyAccess: boolean;
    allowCrossTenantReplication: boolean;
    isHnsEnabled: boolean;
    isSftpEnabled: boolean;
    isNfsV3Enabled: boolean;
    encryption: {
      keySource: 'Microsoft.Storage';
      requireInfrastructureEncryption: boolean;
      services: Record<string, { enabled: boolean; keyType: 'Account' }>;
    };
  };
}

const SECONDARY_REGION: Record<string, string> = {
  westeurope: 'northeurope',
  northeurope: 'westeurope',
  eastus: 'westus',
  westus: 'eastus',
  uksouth: 'ukwest',
  germanywestcentral: 'germanynorth',
};

const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const flag = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);

function endpoints(name: string): Record<string, string> {
  return {
    blob: `https://${name}.blob.core.windows.net/`,
    dfs: `https://${name}.dfs.core.windows.net/`,
    file: `https://${name}.file.core.windows.net/`,
    queue: `https://${name}.queue.core.windows.net/`,
    table: `https://${name}.table.core.windows.net/`,
    web: `https://${name}.z6.web.core.windows.net/`,
  };
}

export function storageAccountId(subscriptionId: string, resourceGroup: string, name: string): string {
  return `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.Storage/storageAccounts/${name}`;
}

/** The resource group named in an ARM id (case kept as it was written). */
export function resourceGroupOf(id: string): string {
  return /\/resourceGroups\/([^/]+)\//i.exec(id)?.[1] ?? '';
}

function networkAclsFrom(networkRules: unknown): ArmNetworkAcls {
  const first: unknown = Array.isArray(networkRules) ? networkRules[0] : networkRules;
  if (!isRecord(first))
    return { defaultAction: 'Allow', bypass: 'AzureServices', ipRules: [], virtualNetworkRules: [] };
  const bypass = Array.isArray(first['bypass']) ? first['bypass'].filter((b) => typeof b === 'string') : [];
  const ipRules = Array.isArray(first['ipRules']) ? first['ipRules'].filter((r) => typeof r === 'string') : [];
  return {
    defaultAction: first['defaultAction'] === 'Deny' ? 'Deny' : 'Allow',
    bypass: bypass.length > 0 ? bypass.join(', ') : 'None',
    ipRules: ipRules.map((value) => ({ value, action: 'Allow' as const })),
    virtualNetworkRules: [],
  };
}

/**
 * What Azure holds after the provider applied these parameters (spec.forProvider of an Account) to
 * the account, or created it from them. Computed values (creation time, endpoints) are kept.
 */
export function armAccountFromParameters(
  subscriptionId: string,
  name: string,
  params: Record<string, unknown>,
  existing?: ArmStorageAccount,
): ArmStorageAccount {
  const location = text(params['location'], existing?.location ?? 'westeurope');
  const tier = text(params['accountTier'], existing?.sku.tier ?? 'Standard');
  const replication = text(params['accountReplicationType'], existing?.sku.name.split('_')[1] ?? 'LRS');
  const kind = text(params['accountKind'], existing?.kind ?? 'StorageV2');
  const geo = /GRS|GZRS/.test(replication);
  const resourceGroup = text(params['resourceGroupName'], existing ? resourceGroupOf(existing.id) : '');
  const previous = existing?.properties;
  const tags = isRecord(params['tags'])
    ? Object.fromEntries(
        Object.entries(params['tags']).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
    : (existing?.tags ?? {});
  const accessTier = text(params['accessTier'], previous?.accessTier ?? (kind === 'StorageV2' ? 'Hot' : ''));
  return {
    id: storageAccountId(subscriptionId, resourceGroup, name),
    name,
    type: 'Microsoft.Storage/storageAccounts',
    location,
    kind,
    sku: { name: `${tier}_${replication}`, tier },
    tags,
    properties: {
      provisioningState: 'Succeeded',
      creationTime: previous?.creationTime ?? new Date().toISOString(),
      primaryLocation: location,
      statusOfPrimary: 'available',
      ...(geo
        ? { secondaryLocation: SECONDARY_REGION[location] ?? location, statusOfSecondary: 'available' as const }
        : {}),
      primaryEndpoints: endpoints(name),
      ...(accessTier ? { accessTier } : {}),
      minimumTlsVersion: text(params['minTlsVersion'], previous?.minimumTlsVersion ?? 'TLS1_0'),
      supportsHttpsTrafficOnly: flag(params['httpsTrafficOnlyEnabled'], previous?.supportsHttpsTrafficOnly ?? true),
      publicNetworkAccess:
        params['publicNetworkAccessEnabled'] === undefined
          ? (previous?.publicNetworkAccess ?? 'Enabled')
          : params['publicNetworkAccessEnabled'] === false
            ? 'Disabled'
            : 'Enabled',
      networkAcls:
        params['networkRules'] === undefined && previous
          ? previous.networkAcls
          : networkAclsFrom(params['networkRules']),
      allowBlobPublicAccess: flag(params['allowNestedItemsToBePublic'], previous?.allowBlobPublicAccess ?? true),
      allowSharedKeyAccess: flag(params['sharedAccessKeyEnabled'], previous?.allowSharedKeyAccess ?? true),
      allowCrossTenantReplication: flag(
        params['crossTenantReplicationEnabled'],
        previous?.allowCrossTenantReplication ?? false,
      ),
      isHnsEnabled: flag(params['isHnsEnabled'], previous?.isHnsEnabled ?? false),
      isSftpEnabled: flag(params['sftpEnabled'], previous?.isSftpEnabled ?? false),
      isNfsV3Enabled: flag(params['nfsv3Enabled'], previous?.isNfsV3Enabled ?? false),
      encryption: {
        keySource: 'Microsoft.Storage',
        requireInfrastructureEncryption: flag(
          params['infrastructureEncryptionEnabled'],
          previous?.encryption.requireInfrastructureEncryption ?? false,
        ),
        services: { blob: { enabled: true, keyType: 'Account' }, file: { enabled: true, keyType: 'Account' } },
      },
    },
  };
}

/**
 * status.atProvider as the provider reports an Azure account: the parameters in the provider's
 * names, then the computed values (id, locations, endpoints).
 */
export function atProviderFromArm(account: ArmStorageAccount): Record<string, unknown> {
  const p = account.properties;
  const [tier, replication] = account.sku.name.split('_');
  const acls = p.networkAcls;
  const host = (key: string) => new URL(p.primaryEndpoints[key] ?? 'https://invalid/').host;
  return {
    location: account.location,
    resourceGroupName: resourceGroupOf(account.id),
    accountKind: account.kind,
    accountTier: tier ?? account.sku.tier,
    accountReplicationType: replication ?? 'LRS',
    ...(p.accessTier ? { accessTier: p.accessTier } : {}),
    minTlsVersion: p.minimumTlsVersion,
    httpsTrafficOnlyEnabled: p.supportsHttpsTrafficOnly,
    publicNetworkAccessEnabled: p.publicNetworkAccess === 'Enabled',
    networkRules: [
      {
        defaultAction: acls.defaultAction,
        bypass: acls.bypass === 'None' ? [] : acls.bypass.split(/,\s*/),
        ipRules: acls.ipRules.map((rule) => rule.value),
      },
    ],
    allowNestedItemsToBePublic: p.allowBlobPublicAccess,
    sharedAccessKeyEnabled: p.allowSharedKeyAccess,
    crossTenantReplicationEnabled: p.allowCrossTenantReplication,
    infrastructureEncryptionEnabled: p.encryption.requireInfrastructureEncryption,
    isHnsEnabled: p.isHnsEnabled,
    sftpEnabled: p.isSftpEnabled,
    nfsv3Enabled: p.isNfsV3Enabled,
    tags: { ...account.tags },
    id: account.id,
    primaryLocation: p.primaryLocation,
    ...(p.secondaryLocation ? { secondaryLocation: p.secondaryLocation } : {}),
    primaryBlobEndpoint: p.primaryEndpoints['blob'],
    primaryBlobHost: host('blob'),
    primaryDfsEndpoint: p.primaryEndpoints['dfs'],
    primaryFileEndpoint: p.primaryEndpoints['file'],
    primaryQueueEndpoint: p.primaryEndpoints['queue'],
    primaryTableEndpoint: p.primaryEndpoints['table'],
    primaryWebEndpoint: p.primaryEndpoints['web'],
  };
}

/** An ARM merge of a PATCH body: tags and sku are replaced, properties merged one level deep. */
function patched(account: ArmStorageAccount, body: Record<string, unknown>): ArmStorageAccount {
  const next = structuredClone(account);
  if (isRecord(body['tags'])) {
    next.tags = Object.fromEntries(
      Object.entries(body['tags']).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  }
  if (isRecord(body['sku']) && typeof body['sku']['name'] === 'string') {
    const name = body['sku']['name'];
    next.sku = { name, tier: name.split('_')[0] ?? next.sku.tier };
  }
  if (typeof body['kind'] === 'string') next.kind = body['kind'];
  const properties = body['properties'];
  if (isRecord(properties)) {
    const target = next.properties as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(properties)) {
      if (key === 'encryption' && isRecord(value)) {
        next.properties.encryption = { ...next.properties.encryption, ...(value as object) };
      } else if (key === 'networkAcls' && isRecord(value)) {
        next.properties.networkAcls = { ...next.properties.networkAcls, ...(value as Partial<ArmNetworkAcls>) };
      } else if (!['provisioningState', 'creationTime', 'primaryEndpoints', 'primaryLocation'].includes(key)) {
        target[key] = value;
      }
    }
  }
  return next;
}

/** A storage account name is unique across Azure; the subscription holds them by lower-case name. */
export class SimulatedAzure {
  private readonly accounts = new Map<string, ArmStorageAccount>();
  /** Names held by accounts outside this subscription (another team's or tenant's): taken, but never listed. */
  private readonly takenElsewhere = new Set<string>();

  constructor(readonly subscriptionId: string) {}

  get(name: string): ArmStorageAccount | undefined {
    const account = this.accounts.get(name.toLowerCase());
    return account ? structuredClone(account) : undefined;
  }

  /** Every account, or those of one resource group, ordered by id as ARM lists them. */
  list(resourceGroup?: string): ArmStorageAccount[] {
    return [...this.accounts.values()]
      .filter((account) => !resourceGroup || resourceGroupOf(account.id).toLowerCase() === resourceGroup.toLowerCase())
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((account) => structuredClone(account));
  }

  /** What the provider does on create or update: Azure takes the parameters. */
  apply(name: string, params: Record<string, unknown>): ArmStorageAccount {
    const account = armAccountFromParameters(this.subscriptionId, name, params, this.accounts.get(name.toLowerCase()));
    this.accounts.set(name.toLowerCase(), account);
    return structuredClone(account);
  }

  /** An ARM PATCH: an edit made in Azure, outside Crossplane. */
  patch(name: string, body: Record<string, unknown>): ArmStorageAccount | undefined {
    const account = this.accounts.get(name.toLowerCase());
    if (!account) return undefined;
    const next = patched(account, body);
    this.accounts.set(name.toLowerCase(), next);
    return structuredClone(next);
  }

  /** An ARM PUT of an account nobody in the cluster asked for (a portal or script outside Crossplane). */
  put(resourceGroup: string, name: string, body: Record<string, unknown>): ArmStorageAccount {
    const sku = isRecord(body['sku']) && typeof body['sku']['name'] === 'string' ? body['sku']['name'] : 'Standard_LRS';
    const [tier, replication] = sku.split('_');
    const base = armAccountFromParameters(this.subscriptionId, name, {
      location: typeof body['location'] === 'string' ? body['location'] : 'westeurope',
      resourceGroupName: resourceGroup,
      accountKind: typeof body['kind'] === 'string' ? body['kind'] : 'StorageV2',
      accountTier: tier,
      accountReplicationType: replication,
    });
    const account = patched(base, body);
    this.accounts.set(name.toLowerCase(), account);
    return structuredClone(account);
  }

  delete(name: string): boolean {
    return this.accounts.delete(name.toLowerCase());
  }

  /** Marks a name as held by an account in another subscription, as Azure's global namespace does. */
  takeNameElsewhere(name: string): void {
    this.takenElsewhere.add(name.toLowerCase());
  }

  /** Whether a storage account of this name exists anywhere in Azure, in this subscription or not. */
  nameTaken(name: string): boolean {
    const key = name.toLowerCase();
    return this.accounts.has(key) || this.takenElsewhere.has(key);
  }

  clear(): void {
    this.accounts.clear();
    this.takenElsewhere.clear();
  }
}
