/**
 * The deployment manifests as a cluster would receive them: every file kustomization.yaml lists,
 * parsed. RBAC is compared with the table of calls the portal's cluster client makes.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { CLUSTER_CALLS } from '../src/server/kubernetes/cluster-calls';

const deployDir = fileURLToPath(new URL('../../../deploy/kubernetes/', import.meta.url));
const memoryOverlayDir = fileURLToPath(new URL('../../../deploy/kubernetes-memory/', import.meta.url));
const run = promisify(execFile);

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

function loadManifests(): Manifest[] {
  const kustomization = parseAllDocuments(readFileSync(`${deployDir}kustomization.yaml`, 'utf8'))[0]?.toJS() as {
    resources: string[];
  };
  return kustomization.resources.flatMap((file) =>
    parseAllDocuments(readFileSync(`${deployDir}${file}`, 'utf8')).map((doc) => {
      expect(doc.errors, `${file} parses`).toEqual([]);
      return doc.toJS() as Manifest;
    }),
  );
}

const manifests = loadManifests();
const kustomizationFile = parseAllDocuments(readFileSync(`${deployDir}kustomization.yaml`, 'utf8'))[0]?.toJS() as {
  images?: { name: string; newName: string; newTag: string }[];
};
const find = (kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is missing from deploy/kubernetes`);
  return found;
};

interface Probe {
  httpGet?: { path: string; port: string };
  exec?: { command: string[] };
  tcpSocket?: { port: string };
}

interface Container {
  name: string;
  image: string;
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
}

interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  securityContext?: Record<string, unknown>;
  containers: Container[];
  volumes?: {
    name: string;
    emptyDir?: Record<string, unknown>;
    secret?: { secretName: string };
    configMap?: { name: string };
  }[];
}

interface WorkloadSpec {
  replicas?: number;
  serviceName?: string;
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  volumeClaimTemplates?: { metadata: { name: string } }[];
}

const deployments = manifests.filter((m) => m.kind === 'Deployment');
/** What runs pods: the two apps' Deployments, the demo PostgreSQL's StatefulSet and its init Job. */
const workloads = manifests.filter((m) => ['Deployment', 'StatefulSet', 'Job'].includes(m.kind));
/** What runs pods that serve, and so needs probes. */
const servers = workloads.filter((m) => m.kind !== 'Job');
const workloadSpec = (workload: Manifest): WorkloadSpec => workload['spec'] as WorkloadSpec;
const podSpec = (workload: Manifest): PodSpec => workloadSpec(workload).template.spec;
const envOf = (workload: Manifest, container: string) =>
  new Map(
    (podSpec(workload).containers.find((c) => c.name === container)?.env ?? []).map((variable) => [
      variable.name,
      variable,
    ]),
  );

/** A folder's manifests as kubectl itself builds them (`kubectl kustomize`, offline). */
async function kustomize(dir: string): Promise<Manifest[]> {
  const { stdout } = await run('kubectl', ['kustomize', dir]);
  return parseAllDocuments(stdout).map((doc) => doc.toJS() as Manifest);
}

const identity = (m: Manifest) => `${m.kind}/${m.metadata.namespace ?? ''}/${m.metadata.name}`;

/** Exit code of a probe's exec command run here, with the container's PORT pointing at `port`. */
async function runProbe(command: string[], port: number): Promise<number> {
  const [file, ...args] = command;
  try {
    await run(file === 'node' ? process.execPath : (file ?? ''), args, {
      env: { ...process.env, PORT: String(port) },
      timeout: 30_000,
    });
    return 0;
  } catch (error) {
    return (error as { code?: number }).code ?? -1;
  }
}

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

function permissions(rules: Rule[]): string[] {
  return rules
    .flatMap((rule) =>
      rule.apiGroups.flatMap((group) =>
        rule.resources.flatMap((resource) => rule.verbs.map((verb) => `${group}/${resource}:${verb}`)),
      ),
    )
    .sort();
}

describe('Kubernetes manifests', () => {
  it('sign the portal in with OpenID Connect and read its secrets from a Secret, never from the manifest', () => {
    const env = podSpec(find('Deployment', 'books-portal')).containers[0]?.env ?? [];
    const byName = new Map(env.map((variable) => [variable.name, variable]));
    expect(byName.get('PORTAL_AUTH')?.value).toBe('oidc');
    for (const name of ['PORTAL_OIDC_ISSUER', 'PORTAL_OIDC_CLIENT_ID', 'PORTAL_PUBLIC_URL']) {
      expect(byName.get(name)?.value, name).toMatch(/\S/);
    }
    for (const name of ['PORTAL_OIDC_CLIENT_SECRET', 'PORTAL_SESSION_SECRET']) {
      expect(byName.get(name)?.value, name).toBeUndefined();
      expect(byName.get(name)?.valueFrom?.secretKeyRef?.name, name).toBe('books-portal-auth');
    }
    expect(byName.get('PORTAL_DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
      name: 'books-portal-database',
      key: 'database-url',
    });
    expect(manifests.some((manifest) => manifest.kind === 'Secret')).toBe(false);
  });

  it('grant the portal exactly the verbs and resources its cluster client calls, nothing more', () => {
    const role = find('ClusterRole', 'books-portal');
    const rules = role['rules'] as Rule[];
    const granted = permissions(rules);
    const needed = [...new Set(Object.values(CLUSTER_CALLS).map((c) => `${c.group}/${c.resource}:${c.verb}`))].sort();
    expect(granted).toEqual([...new Set(granted)]);
    expect(granted).toEqual(needed);
    expect(granted.some((p) => p.includes('*'))).toBe(false);
    expect(rules.every((r) => r.nonResourceURLs === undefined)).toBe(true);
  });

  it('bind that role to the service account the portal pods run as', () => {
    const binding = find('ClusterRoleBinding', 'books-portal');
    const portal = find('Deployment', 'books-portal');
    const account = find('ServiceAccount', podSpec(portal).serviceAccountName ?? '');
    expect(binding['roleRef']).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'books-portal',
    });
    expect(binding['subjects']).toEqual([
      { kind: 'ServiceAccount', name: account.metadata.name, namespace: portal.metadata.namespace },
    ]);
    expect(account.metadata.namespace).toBe(portal.metadata.namespace);
  });

  it('run every workload as non-root with a read-only root file system, no privilege escalation and no capabilities', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['books-api', 'books-portal']);
    expect(workloads.map((w) => `${w.kind}/${w.metadata.name}`).sort()).toEqual([
      'Deployment/books-api',
      'Deployment/books-portal',
      'Job/books-database-init',
      'StatefulSet/books-postgres',
    ]);
    for (const deployment of workloads) {
      const spec = podSpec(deployment);
      expect(spec.securityContext, deployment.metadata.name).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(Number(spec.securityContext?.['runAsUser'])).toBeGreaterThan(0);
      for (const container of spec.containers) {
        expect(container.securityContext, container.name).toEqual({
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
      }
    }
  });

  it('make only emptyDir volumes and claims from a template writable, and mount every one', () => {
    for (const workload of workloads) {
      const spec = podSpec(workload);
      const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
      const mounts = spec.containers.flatMap((c) => c.volumeMounts ?? []);
      for (const volume of volumes.values()) {
        if (volume.emptyDir) continue;
        // Secrets and ConfigMaps are read-only whatever the mount says; say so anyway.
        expect(
          volume.secret ?? volume.configMap,
          `${volume.name} is an emptyDir, a Secret or a ConfigMap`,
        ).toBeDefined();
        for (const mount of mounts.filter((m) => m.name === volume.name)) expect(mount.readOnly, mount.name).toBe(true);
      }
      const claims = (workloadSpec(workload).volumeClaimTemplates ?? []).map((claim) => claim.metadata.name);
      const mounted = spec.containers.flatMap((c) => (c.volumeMounts ?? []).map((m) => m.name));
      expect([...volumes.keys(), ...claims].sort()).toEqual([...new Set(mounted)].sort());
    }
    expect(
      workloadSpec(find('StatefulSet', 'books-postgres')).volumeClaimTemplates?.map((c) => c.metadata.name),
    ).toEqual(['data']);
    const portalMounts = podSpec(find('Deployment', 'books-portal')).containers[0]?.volumeMounts?.map(
      (m) => m.mountPath,
    );
    expect(portalMounts).toContain('/app/apps/portal/.next/cache');
  });

  it('give every container resource requests and limits and a pinned image, and every server probes', () => {
    for (const deployment of workloads) {
      for (const container of podSpec(deployment).containers) {
        if (servers.includes(deployment)) {
          expect(container.readinessProbe, `${container.name} readiness`).toBeDefined();
          expect(container.livenessProbe, `${container.name} liveness`).toBeDefined();
        }
        expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
        expect(Object.keys(container.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
        expect(container.image).toMatch(/:[\w.-]+$/);
        expect(container.image).not.toMatch(/:latest$/);
      }
    }
  });

  it('give the Books API no service-account token, since it never calls the Kubernetes API', () => {
    expect(podSpec(find('Deployment', 'books-api')).automountServiceAccountToken).toBe(false);
  });

  it('route each Service to a named port of the pods it selects', () => {
    for (const service of manifests.filter((m) => m.kind === 'Service')) {
      const spec = service['spec'] as { selector: Record<string, string>; ports: { targetPort: string }[] };
      const target = servers.find((w) => {
        const labels = workloadSpec(w).template.metadata.labels;
        return Object.entries(spec.selector).every(([k, v]) => labels[k] === v);
      });
      expect(target, `${service.metadata.name} selects a workload`).toBeDefined();
      expect(target?.metadata.namespace).toBe(service.metadata.namespace);
      const portNames = podSpec(target as Manifest).containers.flatMap((c) => (c.ports ?? []).map((p) => p.name));
      for (const port of spec.ports) expect(portNames).toContain(port.targetPort);
    }
  });

  it('give the PostgreSQL StatefulSet its headless Service and its password from the Secret', () => {
    const postgres = find('StatefulSet', 'books-postgres');
    const service = find('Service', workloadSpec(postgres).serviceName ?? '');
    expect((service['spec'] as { clusterIP?: string }).clusterIP).toBe('None');
    const env = envOf(postgres, 'postgres');
    expect(env.get('POSTGRES_PASSWORD')?.value).toBeUndefined();
    expect(env.get('POSTGRES_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({ name: 'books-postgres', key: 'password' });
  });

  it('run at least two Books API replicas on PostgreSQL, with DATABASE_URL from a Secret', () => {
    const api = find('Deployment', 'books-api');
    expect(workloadSpec(api).replicas).toBeGreaterThanOrEqual(2);
    const databaseUrl = envOf(api, 'books-api').get('DATABASE_URL');
    expect(databaseUrl?.value).toBeUndefined();
    expect(databaseUrl?.valueFrom?.secretKeyRef).toEqual({ name: 'books-api-database', key: 'database-url' });
  });

  it('take a Books API pod out of the Service while /api/ps fails, but keep it alive while HEAD /api/status answers', async () => {
    const container = podSpec(find('Deployment', 'books-api')).containers[0];
    expect(container?.readinessProbe?.httpGet).toEqual({ path: '/api/ps', port: 'http' });
    const liveness = container?.livenessProbe?.exec?.command ?? [];
    // Kubernetes' httpGet can only GET, and the contract's liveness is HEAD /api/status: the
    // probe's command is run here against a server that answers only that request with 200.
    let status = 200;
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.statusCode = request.method === 'HEAD' && request.url === '/api/status' ? status : 500;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await runProbe(liveness, port)).toBe(0);
      status = 503;
      expect(await runProbe(liveness, port)).not.toBe(0);
      expect(seen).toEqual(['HEAD /api/status', 'HEAD /api/status']);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      expect(await runProbe(liveness, port), 'nothing listening').not.toBe(0);
    } finally {
      server.close();
    }
  }, 60_000);

  it('build with kubectl kustomize to exactly the files the kustomization lists, images from its images: block', async () => {
    const built = await kustomize(deployDir);
    expect(built.map(identity).sort()).toEqual(manifests.map(identity).sort());
    const images = new Map(
      (kustomizationFile.images ?? []).map((image) => [image.name, `${image.newName}:${image.newTag}`]),
    );
    const byIdentity = new Map(manifests.map((m) => [identity(m), m]));
    for (const manifest of built) {
      const expected = structuredClone(byIdentity.get(identity(manifest)));
      if (expected && ['Deployment', 'StatefulSet', 'Job'].includes(expected.kind)) {
        for (const container of podSpec(expected).containers) {
          container.image = images.get(container.image.split(':')[0] ?? '') ?? container.image;
        }
      }
      expect(manifest, identity(manifest)).toEqual(expected);
    }
  }, 60_000);

  it('render NetworkPolicies, AUTH_REQUIRED, the database-init Job and non-superuser roles', async () => {
    const built = await kustomize(deployDir);
    const kinds = (kind: string) => built.filter((m) => m.kind === kind).map((m) => m.metadata.name);
    expect(kinds('NetworkPolicy')).toContain('default-deny');
    expect(kinds('NetworkPolicy').length).toBeGreaterThan(1);
    expect(kinds('Job')).toEqual(['books-database-init']);
    expect(kinds('Ingress')).toEqual(['books-service']);
    const api = built.find((m) => m.kind === 'Deployment' && m.metadata.name === 'books-api');
    expect(api && envOf(api, 'books-api').get('AUTH_REQUIRED')?.value).toBe('true');
    const script = (
      built.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'books-database-init')?.['data'] as
        Record<string, string> | undefined
    )?.['init-databases.sh'];
    for (const role of ['books_api', 'portal']) {
      expect(script).toMatch(new RegExp(`ALTER ROLE ${role} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE`));
    }
    for (const deployment of built.filter((m) => m.kind === 'Deployment')) {
      for (const container of podSpec(deployment).containers) expect(container.image).toMatch(/^[\w.-]+\/.+:[\w.-]+$/);
    }
  }, 60_000);

  it('keep the in-memory variant at one replica of each app, with no PostgreSQL anywhere, and otherwise the same', async () => {
    const memory = await kustomize(memoryOverlayDir);
    const base = await kustomize(deployDir);
    const rendered = JSON.stringify(memory);
    expect(rendered).not.toMatch(/postgres/i);
    expect(rendered).not.toMatch(/DATABASE_URL/);
    const apps = memory.filter((m) => m.kind === 'Deployment');
    expect(apps.map((m) => [m.metadata.name, workloadSpec(m).replicas])).toEqual([
      ['books-api', 1],
      ['books-portal', 1],
    ]);
    // Everything that stays (probes, security, the rest of each app's settings, the network policies
    // but those to PostgreSQL) is the PostgreSQL variant's, untouched.
    const baseByIdentity = new Map(base.map((m) => [identity(m), m]));
    for (const manifest of memory) {
      const expected = structuredClone(baseByIdentity.get(identity(manifest))) as Manifest & { spec: WorkloadSpec };
      expect(expected, identity(manifest)).toBeDefined();
      if (manifest.kind === 'Deployment') {
        expected.spec.replicas = 1;
        for (const container of expected.spec.template.spec.containers) {
          container.env = container.env?.filter((variable) => !variable.name.endsWith('DATABASE_URL'));
        }
      }
      expect(manifest, identity(manifest)).toEqual(expected);
    }
  }, 60_000);
});
