import 'server-only';
import { loadConfig } from './config';
import { clusterCacheHealth } from './kubernetes/cluster-cache';
import { loadClusterConfig } from './kubernetes/cluster-config';
import type { CollectionHealth } from './kubernetes/watched-collection';
import { platformMode } from './platform/storage-accounts';

/**
 * The portal's effective configuration, for the settings page: every parsed setting (so new ones
 * appear without touching this page), the cluster it talks to, and never a secret's value.
 */

export interface SettingEntry {
  label: string;
  value: string;
}

/** Names of settings whose values must never be shown, only whether they are set. */
const SECRET_NAME = /secret|password|token|key|cookie|credential/i;

function label(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function show(value: unknown): string {
  if (value === undefined || value === null || value === '') return 'not set';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => show(item)).join(', ');
  if (value instanceof URL) return value.origin;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? 'not set';
}

export function portalSettings(): SettingEntry[] {
  const config = loadConfig() as unknown as Record<string, unknown>;
  const entries: SettingEntry[] = [
    {
      label: 'Mode',
      value:
        platformMode() === 'mock'
          ? 'development mode: mocked platform data, no cluster contacted'
          : 'cluster: Crossplane accounts through the Kubernetes API',
    },
  ];
  for (const [name, value] of Object.entries(config)) {
    // The ledger's database has its own line below, without the credentials its URL may carry.
    if (name === 'mockPlatform' || name === 'databaseUrl') continue;
    entries.push({
      label: label(name),
      value: SECRET_NAME.test(name) ? (value === undefined || value === '' ? 'not set' : 'set (hidden)') : show(value),
    });
  }
  entries.push(intentLedgerSetting());
  return entries;
}

/** A libpq URL as it may be shown: scheme, host, port and database, never a user or password. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return 'set (not shown)';
  }
}

/** Where intent is kept; said to everyone, because in memory it is lost on restart. */
export function intentLedgerSetting(): SettingEntry {
  const { databaseUrl } = loadConfig();
  return {
    label: 'Intent ledger',
    value: databaseUrl
      ? `PostgreSQL (${withoutCredentials(databaseUrl)}): durable, shared by every replica`
      : 'in memory: not durable. The record of who asked for what is lost when the portal restarts; set PORTAL_DATABASE_URL to keep it',
  };
}

/** The kubeconfig's current context, cluster and user names: where the portal points, no credentials. */
export function clusterSettings(): SettingEntry[] {
  if (platformMode() === 'mock') return [{ label: 'Cluster', value: 'none: development mode contacts no cluster' }];
  try {
    const kubeconfig = loadClusterConfig();
    const cluster = kubeconfig.getCurrentCluster();
    const user = kubeconfig.getCurrentUser();
    return [
      { label: 'Context', value: kubeconfig.getCurrentContext() || 'not set' },
      { label: 'Cluster', value: cluster?.name ?? 'not set' },
      { label: 'API server', value: cluster?.server ?? 'not set' },
      { label: 'User', value: user?.name ?? 'not set' },
      {
        label: 'Found through',
        value: process.env['KUBECONFIG']
          ? 'KUBECONFIG'
          : process.env['KUBERNETES_SERVICE_HOST']
            ? 'in-cluster service account or ~/.kube/config'
            : '~/.kube/config',
      },
    ];
  } catch (error) {
    return [{ label: 'Cluster', value: error instanceof Error ? error.message : 'not configured' }];
  }
}

function collectionState(health: CollectionHealth): string {
  const state = health.failing
    ? 'not serving: the cluster cannot be reached or refused the portal'
    : health.synced
      ? 'synced, following a watch'
      : 'listing';
  return `${state}; ${health.objects.toLocaleString('en')} objects at resourceVersion ${health.resourceVersion || 'none yet'}`;
}

/** The watch-fed cache the portal reads the cluster through: for admins diagnosing a stale or failing portal. */
export function clusterCacheSettings(): SettingEntry[] {
  if (platformMode() === 'mock') return [{ label: 'Cache', value: 'none: development mode contacts no cluster' }];
  const health = clusterCacheHealth();
  if (!health) return [{ label: 'Cache', value: 'not started: nothing has been read from the cluster yet' }];
  return (
    [
      ['Storage accounts', health.accounts],
      ['Resource groups', health.resourceGroups],
    ] as const
  ).flatMap(([name, collection]) => [
    { label: name, value: collectionState(collection) },
    {
      label: `${name}: last list and event`,
      value: `listed ${collection.lastSyncAt ?? 'never'}; last event ${collection.lastEventAt ?? 'none yet'}`,
    },
    {
      label: `${name}: reconnects and re-lists`,
      value: `${collection.reconnects} watches reopened, ${collection.relists} lists again after 410 Gone`,
    },
    {
      label: `${name}: last error`,
      value: collection.lastError ? `${collection.lastError} (${collection.lastErrorAt ?? ''})` : 'none',
    },
  ]);
}
