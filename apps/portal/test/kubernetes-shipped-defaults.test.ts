/**
 * What the shipped manifests protect: the Books API requires tokens and reads its secrets from
 * Secrets, the network paths are only the ones the apps need (the NetworkPolicies evaluated for
 * each path as a cluster would), each app has its own PostgreSQL role, not a superuser, made by the
 * database-init Job (its script run here against a real PostgreSQL), and the images come from the
 * kustomization's images: block. No kubectl needed: these read the files the kustomization lists.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { ThrowawayCluster, withDatabase } from '@books/test-postgres';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findManifest, kustomization, loadManifests, type Manifest } from './deploy-manifests';

const run = promisify(execFile);
const manifests = loadManifests();
const POSTGRES_BIN = process.env['PG_BIN_DIR'] ?? '/usr/lib/postgresql/15/bin';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { containerPort: number }[];
  env?: EnvVar[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; secret?: { secretName: string }; configMap?: { name: string } }[];
}
const podSpec = (m: Manifest) => (m['spec'] as { template: { spec: PodSpec } }).template.spec;
const podLabels = (m: Manifest) =>
  (m['spec'] as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;
const env = (m: Manifest) => new Map((podSpec(m).containers[0]?.env ?? []).map((v) => [v.name, v]));

describe('the Books API as shipped', () => {
  const api = findManifest(manifests, 'Deployment', 'books-api');

  it('requires a token on every books route', () => {
    expect(env(api).get('AUTH_REQUIRED')?.value).toBe('true');
  });

  it('reads its signing secret from a Secret it cannot start without', () => {
    expect(env(api).get('JWT_SECRET_KEY')?.value).toBeUndefined();
    expect(env(api).get('JWT_SECRET_KEY')?.valueFrom?.secretKeyRef).toEqual({ name: 'books-api-jwt', key: 'secret' });
  });

  it('reads its users file from a Secret, mounted read-only', () => {
    const usersFile = env(api).get('USERS_FILE')?.value ?? '';
    const mount = podSpec(api).containers[0]?.volumeMounts?.find((m) => usersFile.startsWith(`${m.mountPath}/`));
    expect(mount?.readOnly).toBe(true);
    const volume = podSpec(api).volumes?.find((v) => v.name === mount?.name);
    expect(volume?.secret?.secretName).toBe('books-api-users');
  });
});

describe('images', () => {
  it('name every app image in the kustomization images: block with a registry and a tag', () => {
    const images = new Map((kustomization().images ?? []).map((image) => [image.name, image]));
    const appImages = manifests
      .filter((m) => m.kind === 'Deployment')
      .flatMap((m) => podSpec(m).containers.map((c) => c.image.split(':')[0] ?? ''));
    expect(appImages.sort()).toEqual(['books-api', 'books-portal']);
    for (const name of appImages) {
      expect(images.get(name)?.newName, name).toMatch(/^[\w.-]+(:\d+)?\/.+\/?/);
      expect(images.get(name)?.newTag, name).toMatch(/^[\w.-]+$/);
    }
  });
});

/** A Dockerfile's stages: the FROM line's image and alias, and the stage's lines. */
function stages(dockerfile: string): { from: string; name: string; lines: string[] }[] {
  const text = readFileSync(new URL(`../../../${dockerfile}`, import.meta.url), 'utf8').replace(/\\\n/g, ' ');
  const result: { from: string; name: string; lines: string[] }[] = [];
  for (const line of text.split('\n')) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) result.push({ from: from[1] ?? '', name: from[2] ?? '', lines: [] });
    else result.at(-1)?.lines.push(line);
  }
  return result;
}

describe('the images', () => {
  for (const dockerfile of ['apps/books-api/Dockerfile', 'apps/portal/Dockerfile']) {
    it(`${dockerfile} builds on the Active LTS line, Node.js 26, slim`, () => {
      const text = readFileSync(new URL(`../../../${dockerfile}`, import.meta.url), 'utf8');
      expect(/^ARG NODE_IMAGE=(\S+)$/m.exec(text)?.[1]).toMatch(/^node:26(\.[\d.]+)?-[a-z]+-slim$/);
      for (const stage of stages(dockerfile)) expect(stage.from).toMatch(/^\$\{NODE_IMAGE\}$/);
    });
  }

  it("builds argon2's binding from source with its install script, compilers only in a build stage", () => {
    const all = stages('apps/books-api/Dockerfile');
    const runtime = all.at(-1);
    const copiedModules = (runtime?.lines ?? [])
      .map((line) => /^COPY --from=(\S+) \S*node_modules/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    expect(copiedModules.length).toBeGreaterThan(0);
    for (const name of new Set(copiedModules)) {
      const stage = all.find((candidate) => candidate.name === name);
      const body = stage?.lines.join('\n') ?? '';
      expect(body, name).toMatch(/apt-get install -y --no-install-recommends python3 make g\+\+/);
      // --ignore-scripts skips argon2's install script too, so the stage must run it afterwards.
      expect(body.indexOf('npm_config_build_from_source=true npm rebuild argon2'), name).toBeGreaterThan(
        body.indexOf('npm ci'),
      );
    }
    expect(runtime?.lines.join('\n')).not.toMatch(/apt-get|g\+\+|python3/);
  });

  it("runs the portal from Next's standalone output with its Node options, no node_modules copied beside it", () => {
    const all = stages('apps/portal/Dockerfile');
    const build = all.find((stage) => stage.name === 'build')?.lines.join('\n') ?? '';
    expect(build).toMatch(/PORTAL_STANDALONE_BUILD=1 npm run build --workspace apps\/portal/);
    const runtime = all.at(-1)?.lines ?? [];
    expect(runtime).toContain('COPY --from=build /app/apps/portal/.next/standalone ./');
    expect(runtime).toContain('COPY --from=build /app/apps/portal/.next/static ./apps/portal/.next/static');
    expect(runtime.filter((line) => /^COPY .*node_modules/.test(line))).toEqual([]);
    // The heap's sizes travel with the server (node-options.env; test/server-heap.test.ts).
    expect(runtime).toContain('COPY --from=build /app/apps/portal/node-options.env ./apps/portal/');
    expect(runtime).toContain('CMD ["node", "--env-file=node-options.env", "server.js"]');
    const config = readFileSync(new URL('../next.config.mjs', import.meta.url), 'utf8');
    expect(config).toMatch(/PORTAL_STANDALONE_BUILD === '1' \? \{ output: 'standalone' \}/);
  });
});

/* ------------------------------------------------------------------------------------------------
 * NetworkPolicy, evaluated as the API defines it: a pod selected by no policy of a direction is
 * open in that direction; one selected by any is closed but for the union of their rules.
 */
interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}
interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyRule {
  from?: Peer[];
  to?: Peer[];
  ports?: { protocol?: string; port?: number }[];
}
interface PolicySpec {
  podSelector: LabelSelector;
  policyTypes: ('Ingress' | 'Egress')[];
  ingress?: PolicyRule[];
  egress?: PolicyRule[];
}
/** A pod has its pod address (ipBlock rules see it); an address is anything outside the cluster's pods. */
type Endpoint =
  { kind: 'pod'; namespace: string; labels: Record<string, string>; ip: string } | { kind: 'address'; ip: string };

const policies = manifests
  .filter((m) => m.kind === 'NetworkPolicy')
  .map((m) => ({ namespace: m.metadata.namespace ?? '', spec: m['spec'] as PolicySpec }));

function matches(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every((expression) => {
    const value = labels[expression.key];
    switch (expression.operator) {
      case 'In':
        return value !== undefined && (expression.values ?? []).includes(value);
      case 'NotIn':
        return value === undefined || !(expression.values ?? []).includes(value);
      case 'Exists':
        return value !== undefined;
      case 'DoesNotExist':
        return value === undefined;
    }
  });
  return byLabels && byExpressions;
}

function inCidr(ip: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const toNumber = (address: string) => address.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
  const size = 2 ** (32 - Number(bits));
  return Math.floor(toNumber(ip) / size) === Math.floor(toNumber(base) / size);
}

function peerMatches(peer: Peer, policyNamespace: string, endpoint: Endpoint): boolean {
  if (peer.ipBlock) {
    return inCidr(endpoint.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((c) => inCidr(endpoint.ip, c));
  }
  if (endpoint.kind !== 'pod') return false;
  const namespaceOk = peer.namespaceSelector
    ? matches(peer.namespaceSelector, { 'kubernetes.io/metadata.name': endpoint.namespace })
    : endpoint.namespace === policyNamespace;
  return namespaceOk && (peer.podSelector ? matches(peer.podSelector, endpoint.labels) : true);
}

function directionAllows(
  direction: 'Ingress' | 'Egress',
  subject: Endpoint,
  other: Endpoint,
  port: number,
  protocol: string,
): boolean {
  if (subject.kind !== 'pod') return true; // outside the cluster: no policy of ours applies
  const selecting = policies.filter(
    (p) =>
      p.namespace === subject.namespace &&
      p.spec.policyTypes.includes(direction) &&
      matches(p.spec.podSelector, subject.labels),
  );
  if (selecting.length === 0) return true;
  return selecting.some((p) =>
    (direction === 'Ingress' ? (p.spec.ingress ?? []) : (p.spec.egress ?? [])).some((rule) => {
      const peers = direction === 'Ingress' ? rule.from : rule.to;
      const peerOk = peers === undefined || peers.some((peer) => peerMatches(peer, p.namespace, other));
      const portOk =
        rule.ports === undefined ||
        rule.ports.some((p) => (p.protocol ?? 'TCP') === protocol && (p.port === undefined || p.port === port));
      return peerOk && portOk;
    }),
  );
}

function allowed(from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean {
  return directionAllows('Egress', from, to, port, protocol) && directionAllows('Ingress', to, from, port, protocol);
}

/** Pod addresses from a typical pod network (10.244.0.0/16). */
let nextPodAddress = 10;
const podAddress = () => `10.244.1.${nextPodAddress++}`;
const inBooks = (name: string): Endpoint => ({
  kind: 'pod',
  namespace: 'books',
  labels: { 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': 'books-service' },
  ip: podAddress(),
});
const workloadPod = (kind: string, name: string): Endpoint => ({
  kind: 'pod',
  namespace: 'books',
  labels: podLabels(findManifest(manifests, kind, name)),
  ip: podAddress(),
});

describe('NetworkPolicies', () => {
  const api = workloadPod('Deployment', 'books-api');
  const portal = workloadPod('Deployment', 'books-portal');
  const database = workloadPod('StatefulSet', 'books-postgres');
  const init = workloadPod('Job', 'books-database-init');
  const stranger = inBooks('something-else');
  const ingressController: Endpoint = {
    kind: 'pod',
    namespace: 'ingress-nginx',
    labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
    ip: podAddress(),
  };
  const otherNamespace: Endpoint = { kind: 'pod', namespace: 'default', labels: {}, ip: podAddress() };
  const dns: Endpoint = { kind: 'pod', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' }, ip: podAddress() };
  const internet: Endpoint = { kind: 'address', ip: '203.0.113.7' };
  const apiPort = podSpec(findManifest(manifests, 'Deployment', 'books-api')).containers[0]?.ports?.[0]?.containerPort;
  const portalPort = podSpec(findManifest(manifests, 'Deployment', 'books-portal')).containers[0]?.ports?.[0]
    ?.containerPort;

  it('deny everything in the namespace by default, both ways', () => {
    const deny = policies.find(
      (p) => Object.keys(p.spec.podSelector).length === 0 && !p.spec.ingress && !p.spec.egress,
    );
    expect(deny?.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    expect(allowed(stranger, stranger, 8080)).toBe(false);
    expect(allowed(stranger, internet, 443)).toBe(false);
  });

  it('let the ingress controller reach the API and the portal on their ports, and nothing else reach them', () => {
    expect(allowed(ingressController, api, apiPort ?? 0)).toBe(true);
    expect(allowed(ingressController, portal, portalPort ?? 0)).toBe(true);
    expect(allowed(ingressController, api, 9229)).toBe(false);
    expect(allowed(ingressController, database, 5432)).toBe(false);
    expect(allowed(otherNamespace, api, apiPort ?? 0)).toBe(false);
    expect(allowed(stranger, portal, portalPort ?? 0)).toBe(false);
    expect(allowed(portal, api, apiPort ?? 0)).toBe(false);
    expect(allowed(api, portal, portalPort ?? 0)).toBe(false);
  });

  it('let the apps and the init Job reach PostgreSQL, and nobody else', () => {
    for (const client of [api, portal, init]) expect(allowed(client, database, 5432)).toBe(true);
    expect(allowed(stranger, database, 5432)).toBe(false);
    expect(allowed(ingressController, database, 5432)).toBe(false);
    expect(allowed(api, database, 22)).toBe(false);
  });

  it('let the portal reach HTTPS on public addresses and the Kubernetes API, and nothing else in the cluster', () => {
    expect(allowed(portal, internet, 443)).toBe(true);
    expect(allowed(portal, internet, 6443)).toBe(false);
    expect(allowed(portal, internet, 80)).toBe(false);
    expect(allowed(portal, internet, 5432)).toBe(false);
    // The API server's address, as shipped (a documentation address to replace) on both its ports.
    const apiServer: Endpoint = { kind: 'address', ip: '192.0.2.10' };
    expect(allowed(portal, apiServer, 6443)).toBe(true);
    expect(allowed(portal, apiServer, 443)).toBe(true);
    // Private ranges: pods and Services of any namespace, nodes, the metadata endpoint, CGNAT.
    for (const ip of [
      '10.0.0.1',
      '10.96.0.1',
      '172.16.5.4',
      '172.31.255.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
    ]) {
      expect(allowed(portal, { kind: 'address', ip }, 443), ip).toBe(false);
    }
    for (const pod of [otherNamespace, ingressController, dns, api, stranger]) {
      expect(allowed(portal, pod, 443), pod.kind === 'pod' ? pod.namespace : '').toBe(false);
    }
    expect(allowed(api, internet, 443)).toBe(false);
    expect(allowed(database, internet, 443)).toBe(false);
    expect(allowed(init, internet, 443)).toBe(false);
  });

  it('let every pod resolve names, and only that, at the cluster DNS', () => {
    for (const pod of [api, portal, database, init, stranger]) {
      expect(allowed(pod, dns, 53, 'UDP')).toBe(true);
      expect(allowed(pod, dns, 53, 'TCP')).toBe(true);
      expect(allowed(pod, dns, 8080)).toBe(false);
    }
  });
});

/* ------------------------------------------------------------------------------------------------
 * The database-init Job: its script, from the ConfigMap, against a real PostgreSQL.
 */
describe('the database-init Job', () => {
  const job = findManifest(manifests, 'Job', 'books-database-init');
  const configMap = findManifest(manifests, 'ConfigMap', 'books-database-init');
  const script = (configMap['data'] as Record<string, string>)['init-databases.sh'] ?? '';
  let cluster: ThrowawayCluster;

  beforeAll(async () => {
    cluster = await ThrowawayCluster.create();
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  /** Runs the script as the Job's container would, with this cluster as books-postgres. */
  async function runJob(passwords: { booksApi: string; portal: string }): Promise<string> {
    const { stdout } = await run('bash', ['-c', script], {
      env: {
        ...process.env,
        PATH: `${POSTGRES_BIN}:${process.env['PATH'] ?? ''}`,
        PGHOST: '127.0.0.1',
        PGPORT: String(cluster.port),
        PGUSER: 'postgres',
        BOOKS_API_DATABASE_PASSWORD: passwords.booksApi,
        PORTAL_DATABASE_PASSWORD: passwords.portal,
      },
      timeout: 60_000,
    });
    return stdout;
  }

  it('runs that script with the superuser password and each app password from their Secrets', () => {
    const container = podSpec(job).containers[0];
    expect(container?.command).toEqual(['bash', '/scripts/init-databases.sh']);
    const mount = container?.volumeMounts?.find((m) => m.mountPath === '/scripts');
    expect(podSpec(job).volumes?.find((v) => v.name === mount?.name)?.configMap?.name).toBe('books-database-init');
    const secrets = Object.fromEntries(
      (container?.env ?? []).filter((v) => v.valueFrom).map((v) => [v.name, v.valueFrom?.secretKeyRef]),
    );
    expect(secrets).toEqual({
      PGPASSWORD: { name: 'books-postgres', key: 'password' },
      BOOKS_API_DATABASE_PASSWORD: { name: 'books-api-database', key: 'password' },
      PORTAL_DATABASE_PASSWORD: { name: 'books-portal-database', key: 'password' },
    });
    expect(env(job).get('PGHOST')?.value).toBe('books-postgres');
  });

  it('makes each app a login role with a password that is no superuser, owning its own database, and runs again', async () => {
    // Twice, as after a re-apply: the second run finds everything made and only sets the passwords again.
    await runJob({ booksApi: 'first-books-password', portal: 'first-portal-password' });
    expect(await runJob({ booksApi: 'second-books-password', portal: 'first-portal-password' })).toMatch(/ready/);
    const admin = postgres(cluster.url, { max: 1, onnotice: () => undefined });
    try {
      const passwords = await admin<{ rolname: string; rolpassword: string | null }[]>`
        select rolname, rolpassword from pg_authid where rolname in ('books_api', 'portal') order by rolname`;
      expect(passwords.map((row) => [row.rolname, row.rolpassword?.startsWith('SCRAM-SHA-256$')])).toEqual([
        ['books_api', true],
        ['portal', true],
      ]);
      const roles = await admin<
        { rolname: string; rolsuper: boolean; rolcreatedb: boolean; rolcreaterole: boolean; rolcanlogin: boolean }[]
      >`select rolname, rolsuper, rolcreatedb, rolcreaterole, rolcanlogin from pg_roles
        where rolname in ('books_api', 'portal') order by rolname`;
      expect(roles).toEqual([
        { rolname: 'books_api', rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolcanlogin: true },
        { rolname: 'portal', rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolcanlogin: true },
      ]);
      const owners = await admin<{ datname: string; owner: string }[]>`
        select datname, pg_get_userbyid(datdba) as owner from pg_database
        where datname in ('books', 'portal') order by datname`;
      expect(owners).toEqual([
        { datname: 'books', owner: 'books_api' },
        { datname: 'portal', owner: 'portal' },
      ]);
    } finally {
      await admin.end();
    }
  }, 120_000);

  it("lets the API's role run its first migration's extension and tables, and keeps each role out of the other's database", async () => {
    await runJob({ booksApi: 'books-password', portal: 'portal-password' });
    const as = (role: string, database: string) => {
      const url = new URL(withDatabase(cluster.url, database));
      url.username = role;
      return postgres(url.toString(), { max: 1, onnotice: () => undefined });
    };
    const books = as('books_api', 'books');
    try {
      // pg_trgm is a trusted extension: the database's owner may create it, no superuser needed.
      await books`create extension if not exists pg_trgm`;
      await books`create table if not exists probe (id int primary key)`;
      await books`drop table probe`;
    } finally {
      await books.end();
    }
    for (const [role, database] of [
      ['portal', 'books'],
      ['books_api', 'portal'],
    ] as const) {
      const intruder = as(role, database);
      await expect(intruder`select 1`, `${role} in ${database}`).rejects.toThrow(/permission denied/);
      await intruder.end();
    }
  }, 120_000);
});
