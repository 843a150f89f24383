/** The self-service catalog. Only offerings with an href can be requested today. */
export interface Offering {
  id: string;
  title: string;
  summary: string;
  provider: string;
  href?: string;
}

export const OFFERINGS: readonly Offering[] = [
  {
    id: 'azure-storage',
    title: 'Azure Storage Account',
    summary:
      'Blob, file, queue and table storage with secure defaults: TLS 1.2, HTTPS only, encryption at rest, no public containers.',
    provider: 'Crossplane · provider-azure-storage',
    href: '/catalog/azure-storage',
  },
  {
    id: 'azure-postgresql',
    title: 'Azure Database for PostgreSQL',
    summary: 'A managed PostgreSQL flexible server with private networking and automated backups.',
    provider: 'Crossplane · provider-azure-dbforpostgresql',
  },
  {
    id: 'azure-key-vault',
    title: 'Azure Key Vault',
    summary: 'A vault for secrets, keys and certificates, with RBAC authorization.',
    provider: 'Crossplane · provider-azure-keyvault',
  },
  {
    id: 'azure-service-bus',
    title: 'Azure Service Bus',
    summary: 'Queues and topics for reliable messaging between services.',
    provider: 'Crossplane · provider-azure-servicebus',
  },
];
