import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/permissions';
import { parseConfig } from '../runtime/config';
import { settingsFor, urlWithoutCredentials, type SettingsSources } from './portal-settings';

const CLIENT_SECRET = 'client-secret-value-0123456789';
const SESSION_SECRET = 'session-secret-value-0123456789abcdefgh';
const DATABASE_PASSWORD = 'database-password-0123';
const DATABASE_URL = `postgres://portal:${DATABASE_PASSWORD}@db.internal:5432/portal?sslmode=require`;
const CLUSTER_TOKEN = 'cluster-token-0123456789';
const PROXY_SECRET = 'proxy-secret-value-0123456789abcdefgh';

const config = parseConfig({
  PORTAL_AUTH: 'oidc',
  PORTAL_OIDC_ISSUER: 'https://login.example.com/realms/platform',
  PORTAL_OIDC_CLIENT_ID: 'portal',
  PORTAL_OIDC_CLIENT_SECRET: CLIENT_SECRET,
  PORTAL_PUBLIC_URL: 'https://portal.example.com',
  PORTAL_SESSION_SECRET: SESSION_SECRET,
  PORTAL_DATABASE_URL: DATABASE_URL,
  PORTAL_ADMIN_GROUPS: 'platform-admins',
  PORTAL_REQUESTER_GROUPS: 'developers',
});

function kubeconfig(): KubeConfig {
  const kubeconfig = new KubeConfig();
  kubeconfig.loadFromOptions({
    clusters: [{ name: 'platform-prod', server: 'https://admin:hunter2@k8s.example.com:6443', skipTLSVerify: false }],
    users: [{ name: 'portal-sa', token: CLUSTER_TOKEN }],
    contexts: [{ name: 'prod', cluster: 'platform-prod', user: 'portal-sa' }],
    currentContext: 'prod',
  });
  return kubeconfig;
}

const sources: SettingsSources = {
  config,
  mode: 'kubernetes',
  cluster: { kubeconfig: kubeconfig() },
  env: { KUBECONFIG: '/etc/portal/kubeconfig' },
};

const person = (role: Principal['role']): Principal => ({
  subject: `https://login.example.com#${role}`,
  identity: `${role}@example.com`,
  role,
});
const text = (view: ReturnType<typeof settingsFor>) => JSON.stringify(view);
const entry = (view: ReturnType<typeof settingsFor>, label: string) =>
  view.sections.flatMap((section) => section.entries).find((candidate) => candidate.label === label)?.value;

describe('settings page content', () => {
  it('shows admins the effective configuration with secrets only as set', () => {
    const view = settingsFor(person('admin'), sources);
    expect(view.full).toBe(true);
    expect(entry(view, 'OIDC client ID')).toBe('portal');
    expect(entry(view, 'OIDC client secret')).toBe('set');
    expect(entry(view, 'Session secret')).toBe('set');
    expect(entry(view, 'Session store')).toBe('PostgreSQL at postgres://db.internal:5432/portal');
    expect(entry(view, 'Admin groups')).toBe('platform-admins');
    expect(entry(view, 'API server')).toBe('https://k8s.example.com:6443');
    expect(entry(view, 'User')).toBe('portal-sa');
  });

  it('says where intent is kept, and that it is not durable without PORTAL_DATABASE_URL', () => {
    expect(entry(settingsFor(person('admin'), sources), 'Intent ledger')).toBe(
      'PostgreSQL at postgres://db.internal:5432/portal: durable, shared by every replica',
    );
    const inMemory = parseConfig({
      PORTAL_AUTH: 'proxy',
      PORTAL_PROXY_SECRET: PROXY_SECRET,
      PORTAL_ADMIN_GROUPS: 'platform-admins',
    });
    expect(entry(settingsFor(person('admin'), { ...sources, config: inMemory }), 'Intent ledger')).toMatch(
      /^in memory: not durable\. .*set PORTAL_DATABASE_URL to keep it$/,
    );
  });

  it('shows the proxy secret of proxy mode only as set', () => {
    const proxied = parseConfig({ PORTAL_AUTH: 'proxy', PORTAL_PROXY_SECRET: PROXY_SECRET });
    const view = settingsFor(person('admin'), { ...sources, config: proxied });
    expect(entry(view, 'Proxy secret')).toBe('set');
    expect(text(view)).not.toContain(PROXY_SECRET);
  });

  it.each(['viewer', 'requester', 'admin'] as const)('never holds a secret for a %s', (role) => {
    const shown = text(settingsFor(person(role), sources));
    for (const secret of [CLIENT_SECRET, SESSION_SECRET, DATABASE_PASSWORD, DATABASE_URL, CLUSTER_TOKEN, 'hunter2']) {
      expect(shown).not.toContain(secret);
    }
  });

  it.each(['viewer', 'requester'] as const)('shows a %s only the mode, the cluster name and the version', (role) => {
    const view = settingsFor(person(role), sources);
    expect(view.full).toBe(false);
    expect(view.sections.flatMap((section) => section.entries.map((e) => e.label))).toEqual([
      'Mode',
      'Cluster',
      'Version',
    ]);
    expect(entry(view, 'Cluster')).toBe('platform-prod');
    expect(entry(view, 'Version')).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('shows a URL without its user, password, query or fragment, and never a value that is no URL', () => {
    expect(urlWithoutCredentials('postgresql://u:p@h/db?password=p#x')).toBe('postgresql://h/db');
    expect(urlWithoutCredentials('https://issuer.example.com/')).toBe('https://issuer.example.com');
    expect(urlWithoutCredentials('not a url with secret')).toBe('set (not a URL)');
    expect(urlWithoutCredentials(undefined)).toBe('not set');
  });
});
