import 'server-only';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Principal } from '@/lib/auth/permissions';
import type { PlatformMode } from '@/lib/platform/types';
import packageJson from '../../../package.json';
import type { AuthConfig } from '../runtime/auth-config';
import type { PortalConfig } from '../runtime/config';
import { clusterCacheHealth } from '../backends/kubernetes/cluster-cache';
import type { CollectionHealth } from '../backends/kubernetes/collection-options';

/**
 * What the settings page shows. Every value comes from an explicit list of displayable fields:
 * a setting added to the configuration appears here only when someone adds it to that list, and
 * a secret only ever shows as set or not set. A URL shows without its user, password and query
 * (libpq URLs may carry the password as ?password=).
 */

export interface SettingEntry {
  label: string;
  value: string;
}

const PORTAL_VERSION: string = packageJson.version;

/** A secret is never shown, only whether it is configured. */
function secretState(value: string | undefined): string {
  return value === undefined || value === '' ? 'not set' : 'set';
}

/** scheme://host:port/path of a URL: no user, no password, no query, no fragment. */
export function urlWithoutCredentials(raw: string | URL | undefined): string {
  if (raw === undefined || raw === '') return 'not set';
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    // Never echo a value that did not even parse: it may be anything.
    return 'set (not a URL)';
  }
}

const list = (values: readonly string[]): string => (values.length === 0 ? 'none' : values.join(', '));

function platformModeText(mode: PlatformMode): string {
  return mode === 'mock'
    ? 'development mode: mocked platform data, no cluster contacted'
    : 'cluster: Crossplane accounts through the Kubernetes API';
}

const SIGN_IN_MODES: Record<AuthConfig['mode'], string> = {
  development: 'development mode: everyone acts as the admin "developer"',
  none: 'none: no sign-in, everyone acts as an admin',
  proxy: 'proxy: an authenticating proxy forwards the identity',
  oidc: 'oidc: sign-in with an OpenID Connect provider',
};

function authSettings(auth: AuthConfig): SettingEntry[] {
  const entries: SettingEntry[] = [{ label: 'Sign-in', value: SIGN_IN_MODES[auth.mode] }];
  if (auth.mode === 'proxy' || auth.mode === 'oidc') {
    entries.push(
      { label: 'Roles claim', value: auth.roles.claim },
      { label: 'Admin groups', value: list(auth.roles.adminGroups) },
      { label: 'Requester groups', value: list(auth.roles.requesterGroups) },
    );
  }
  if (auth.mode === 'proxy') entries.push({ label: 'Proxy secret', value: secretState(auth.proxySecret) });
  if (auth.mode === 'oidc') {
    entries.push(
      { label: 'OIDC issuer', value: urlWithoutCredentials(auth.oidc.issuer) },
      { label: 'OIDC client ID', value: auth.oidc.clientId },
      { label: 'OIDC client secret', value: secretState(auth.oidc.clientSecret) },
      { label: 'OIDC scopes', value: auth.oidc.scopes.join(' ') },
      { label: 'Session secret', value: secretState(auth.session.secret) },
      {
        label: 'Session store',
        value:
          auth.session.databaseUrl === undefined
            ? 'memory of this process (sign-ins are not shared by replicas)'
            : `PostgreSQL at ${urlWithoutCredentials(auth.session.databaseUrl)}`,
      },
    );
  }
  return entries;
}

/** The effective configuration, for admins. */
function portalSettings(config: PortalConfig, mode: PlatformMode): SettingEntry[] {
  return [
    { label: 'Mode', value: platformModeText(mode) },
    { label: 'Version', value: PORTAL_VERSION },
    { label: 'Public URL', value: urlWithoutCredentials(config.publicUrl) },
    { label: 'Port', value: String(config.port) },
    { label: 'Log level', value: config.logLevel },
    { label: 'Allowed locations', value: list(config.allowedLocations) },
    { label: 'Live accounts per requester', value: String(config.createLimits.maxAccountsPerUser) },
    { label: 'Creates per requester an hour', value: String(config.createLimits.maxCreatesPerHour) },
    {
      label: 'Create limits counted',
      value: config.databaseUrl
        ? 'in the intent ledger’s PostgreSQL: every replica counts the same creates'
        : 'per portal process (intent ledger in memory): each replica counts only its own creates',
    },
    ...authSettings(config.auth),
    {
      label: 'Intent ledger',
      value: config.databaseUrl
        ? `PostgreSQL at ${urlWithoutCredentials(config.databaseUrl)}: durable, shared by every replica`
        : 'in memory: not durable. The record of who asked for what is lost when the portal restarts; set PORTAL_DATABASE_URL to keep it',
    },
  ];
}

/** Where the kubeconfig points: context, cluster, API server, user name; never its credentials. */
function clusterSettings(kubeconfig: KubeConfig, env: Record<string, string | undefined>): SettingEntry[] {
  const cluster = kubeconfig.getCurrentCluster();
  const user = kubeconfig.getCurrentUser();
  return [
    { label: 'Context', value: kubeconfig.getCurrentContext() || 'not set' },
    { label: 'Cluster', value: cluster?.name ?? 'not set' },
    { label: 'API server', value: urlWithoutCredentials(cluster?.server) },
    { label: 'User', value: user?.name ?? 'not set' },
    {
      label: 'Found through',
      value: env['KUBECONFIG']
        ? 'KUBECONFIG'
        : env['KUBERNETES_SERVICE_HOST']
          ? 'in-cluster service account or ~/.kube/config'
          : '~/.kube/config',
    },
  ];
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
function clusterCacheSettings(mode: PlatformMode): SettingEntry[] {
  if (mode === 'mock') return [{ label: 'Cache', value: 'none: development mode contacts no cluster' }];
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

/** What a signed-in user who is not an admin sees: the mode, the cluster's name and the version. */
function summarySettings(mode: PlatformMode, clusterName: string): SettingEntry[] {
  return [
    { label: 'Mode', value: platformModeText(mode) },
    { label: 'Cluster', value: clusterName },
    { label: 'Version', value: PORTAL_VERSION },
  ];
}

export interface SettingsView {
  /** True when the full configuration is shown (admins). */
  full: boolean;
  sections: { title: string; entries: SettingEntry[] }[];
}

export interface SettingsSources {
  config: PortalConfig;
  mode: PlatformMode;
  /** The kubeconfig, or why it could not be read (undefined in development mode). */
  cluster: { kubeconfig: KubeConfig } | { problem: string } | undefined;
  env: Record<string, string | undefined>;
}

function clusterName(cluster: SettingsSources['cluster']): string {
  if (cluster === undefined) return 'none: development mode contacts no cluster';
  if ('problem' in cluster) return 'not configured';
  return cluster.kubeconfig.getCurrentCluster()?.name ?? 'not set';
}

/** The settings page's content for this user: admins see everything displayable, others a summary. */
export function settingsFor(principal: Principal, sources: SettingsSources): SettingsView {
  if (principal.role !== 'admin') {
    return {
      full: false,
      sections: [{ title: 'Portal', entries: summarySettings(sources.mode, clusterName(sources.cluster)) }],
    };
  }
  const { cluster } = sources;
  const clusterEntries =
    cluster === undefined
      ? [{ label: 'Cluster', value: clusterName(cluster) }]
      : 'problem' in cluster
        ? [{ label: 'Cluster', value: cluster.problem }]
        : clusterSettings(cluster.kubeconfig, sources.env);
  return {
    full: true,
    sections: [
      { title: 'Portal', entries: portalSettings(sources.config, sources.mode) },
      { title: 'Cluster', entries: clusterEntries },
      { title: 'Cluster cache', entries: clusterCacheSettings(sources.mode) },
    ],
  };
}
