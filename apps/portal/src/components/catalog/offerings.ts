/** The self-service catalog. Only offerings with an href can be requested today. */
export interface Offering {
  id: string;
  title: string;
  summary: string;
  provider: string;
  href?: string;
  /** The team that runs the offering and answers questions about it. */
  owner: string;
  /** Where to read how to use it. */
  docsUrl: string;
  /** A rough idea of what it costs, from Azure's public list prices; agreements may differ. */
  cost: string;
}

export const OFFERINGS: readonly Offering[] = [
  {
    id: 'azure-storage',
    title: 'Azure Storage Account',
    summary:
      'Blob, file, queue and table storage with secure defaults: TLS 1.2, HTTPS only, encryption at rest, no public containers.',
    provider: 'Crossplane · provider-azure-storage',
    href: '/catalog/azure-storage',
    owner: 'Platform team · storage',
    docsUrl: 'https://learn.microsoft.com/azure/storage/common/storage-account-overview',
    cost: 'About US$0.02 per GB a month (Standard, Hot, LRS), plus a little per operation',
  },
  {
    id: 'azure-postgresql',
    title: 'Azure Database for PostgreSQL',
    summary: 'A managed PostgreSQL flexible server with private networking and automated backups.',
    provider: 'Crossplane · provider-azure-dbforpostgresql',
    owner: 'Platform team · databases',
    docsUrl: 'https://learn.microsoft.com/azure/postgresql/flexible-server/overview',
    cost: 'From about US$15 a month (Burstable B1ms), plus storage and backups',
  },
  {
    id: 'azure-key-vault',
    title: 'Azure Key Vault',
    summary: 'A vault for secrets, keys and certificates, with RBAC authorization.',
    provider: 'Crossplane · provider-azure-keyvault',
    owner: 'Security team',
    docsUrl: 'https://learn.microsoft.com/azure/key-vault/general/overview',
    cost: 'About US$0.03 per 10,000 operations (Standard); keys in HSMs cost more',
  },
  {
    id: 'azure-service-bus',
    title: 'Azure Service Bus',
    summary: 'Queues and topics for reliable messaging between services.',
    provider: 'Crossplane · provider-azure-servicebus',
    owner: 'Platform team · messaging',
    docsUrl: 'https://learn.microsoft.com/azure/service-bus-messaging/service-bus-messaging-overview',
    cost: 'About US$10 a month for the Standard tier, plus a little per million operations',
  },
];
