/**
 * The words for each setting of a storage account, in the order people think of them: the one
 * table every page, form, message and the ledger's change records take a setting's name from.
 * The storage request's own names for three of them (accountKind, accountTier, replicationType)
 * are mapped to these keys where they are shown.
 */
export const SETTING_LABELS = {
  location: 'Location',
  resourceGroup: 'Resource group',
  kind: 'Account kind',
  tier: 'Performance tier',
  replication: 'Replication',
  accessTier: 'Access tier',
  publicNetworkAccess: 'Public network access',
  allowedIpRanges: 'Allowed IP ranges',
  httpsOnly: 'HTTPS only',
  minTlsVersion: 'Minimum TLS version',
  sharedKeyAccess: 'Shared key access',
  hierarchicalNamespace: 'Hierarchical namespace',
  sftpEnabled: 'SFTP',
  nfsv3Enabled: 'NFSv3',
  allowNestedItemsToBePublic: 'Public nested items allowed',
  crossTenantReplication: 'Cross-tenant replication',
  infrastructureEncryption: 'Infrastructure encryption',
  application: 'Application',
  environment: 'Environment',
} as const;
