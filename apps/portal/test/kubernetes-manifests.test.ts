/**
 * The deployment manifests as a cluster would receive them: every file kustomization.yaml lists,
 * parsed. RBAC is compared with the table of calls the portal's cluster client makes. What
 * `kubectl kustomize` builds from them is checked in the system suite (system/kubectl-kustomize.test.ts).
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLUSTER_CALLS, NAMESPACED_CALLS } from '../src/server/backends/kubernetes/cluster-calls';
import {
  envOf,
  findManifest,
  loadManifests,
  type Manifest,
  NAMESPACED_DEPLOY_DIR,
  podSpec,
  readManifestFile,
  workloadSpec,
} from './deploy-manifests';

const run = promisify(execFile);
const manifests = loadManifests();
const find = (kind: string, name: string): Manifest => findManifest(manifests, kind, name);

const deployments = manifests.filter((m) => m.kind === 'Deployment');
/** What runs pods: the two apps' Deployments, the demo PostgreSQL's StatefulSet and its init Job. */
const workloads = manifests.filter((m) => ['Deployment', 'StatefulSet', 'Job'].includes(m.kind));
/** What runs pods that serve, and so needs probes. */
const servers = workloads.filter((m) => m.kind !== 'Job');

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

  it('grant the portal cluster-wide exactly the verbs and resources its cluster-wide calls need, nothing more', () => {
    const role = find('ClusterRole', 'books-portal');
    const rules = role['rules'] as Rule[];
    const granted = permissions(rules);
    const calls = Object.values(CLUSTER_CALLS);
    const needed = [
      ...new Set(calls.filter((c) => c.namespace === undefined).map((c) => `${c.group}/${c.resource}:${c.verb}`)),
    ].sort();
    expect(granted).toEqual([...new Set(granted)]);
    expect(granted).toEqual(needed);
    // The contract's list: read Accounts and ResourceGroups, and create, patch and delete Accounts.
    expect(granted).toEqual([
      'azure.upbound.io/resourcegroups:list',
      'azure.upbound.io/resourcegroups:watch',
      'storage.azure.upbound.io/accounts:create',
      'storage.azure.upbound.io/accounts:delete',
      'storage.azure.upbound.io/accounts:get',
      'storage.azure.upbound.io/accounts:list',
      'storage.azure.upbound.io/accounts:patch',
      'storage.azure.upbound.io/accounts:watch',
    ]);
    expect(granted.some((p) => p.includes('*') || p.startsWith('/events'))).toBe(false);
    expect(rules.every((r) => r.nonResourceURLs === undefined)).toBe(true);
  });

  it('grant the portal its namespaced calls through a Role in that namespace only, bound to its service account', () => {
    const calls = Object.values(CLUSTER_CALLS).filter((c) => c.namespace !== undefined);
    const namespaces = [...new Set(calls.map((c) => c.namespace))];
    expect(namespaces).toEqual(['default']);
    const roles = manifests.filter((m) => m.kind === 'Role');
    expect(roles.map((r) => `${r.metadata.namespace}/${r.metadata.name}`)).toEqual(['default/books-portal-events']);
    for (const role of roles) {
      const needed = [
        ...new Set(
          calls.filter((c) => c.namespace === role.metadata.namespace).map((c) => `${c.group}/${c.resource}:${c.verb}`),
        ),
      ].sort();
      expect(permissions(role['rules'] as Rule[])).toEqual(needed);
      const binding = manifests.find((m) => m.kind === 'RoleBinding' && m.metadata.name === role.metadata.name);
      expect(binding?.metadata.namespace).toBe(role.metadata.namespace);
      expect(binding?.['roleRef']).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: role.metadata.name,
      });
      expect(binding?.['subjects']).toEqual([{ kind: 'ServiceAccount', name: 'books-portal', namespace: 'books' }]);
    }
  });

  it('grant the namespaced (Crossplane v2) portal exactly its calls: reads cluster-wide, the rest per team namespace', () => {
    const overlay = (file: string): Manifest => readManifestFile(NAMESPACED_DEPLOY_DIR, file)[0] as Manifest;
    const calls = Object.values(NAMESPACED_CALLS);
    const needed = (team: boolean) =>
      [
        ...new Set(calls.filter((c) => Boolean(c.team) === team).map((c) => `${c.group}/${c.resource}:${c.verb}`)),
      ].sort();
    const clusterWide = permissions(overlay('portal-clusterrole.yaml')['rules'] as Rule[]);
    expect(clusterWide).toEqual(needed(false));
    expect(clusterWide.every((p) => p.endsWith(':list') || p.endsWith(':watch'))).toBe(true);
    expect(permissions(overlay('portal-team-clusterrole.yaml')['rules'] as Rule[])).toEqual(needed(true));
  });

  it("route only the Books API's public paths through the Ingress, never /metrics", () => {
    const rules = find('Ingress', 'books-service')['spec'] as {
      rules: {
        host: string;
        http: { paths: { path: string; pathType: string; backend: { service: { name: string } } }[] };
      }[];
    };
    const api = rules.rules.flatMap((rule) => rule.http.paths.filter((p) => p.backend.service.name === 'books-api'));
    const routed = api.map((p) => `${p.pathType} ${p.path}`);
    expect(routed).toEqual([
      'Exact /',
      'Prefix /api',
      'Exact /token',
      'Prefix /docs',
      'Prefix /redoc',
      'Exact /openapi.json',
      'Exact /.well-known/jwks.json',
      'Exact /favicon.ico',
    ]);
    // Ingress paths match whole path elements: what a Prefix or Exact path lets through.
    const reaches = (path: string) =>
      api.some((p) => (p.pathType === 'Exact' ? path === p.path : path === p.path || path.startsWith(`${p.path}/`)));
    for (const path of ['/metrics', '/metrics/', '/api-metrics', '/docsx', '/token/x'])
      expect(reaches(path), path).toBe(false);
    for (const path of ['/', '/api/ps', '/api/v1/books', '/docs/static/index.html', '/token', '/redoc']) {
      expect(reaches(path), path).toBe(true);
    }
  });

  it("serve the portal's metrics on a port and Service of their own, which the Ingress never names", () => {
    const portal = find('Deployment', 'books-portal');
    expect(envOf(portal, 'portal').get('PORTAL_METRICS_PORT')?.value).toBe('9464');
    const metrics = find('Service', 'books-portal-metrics')['spec'] as {
      ports: { port: number; targetPort: string }[];
    };
    expect(metrics.ports).toEqual([{ name: 'metrics', port: 9464, targetPort: 'metrics' }]);
    const backends = (
      find('Ingress', 'books-service')['spec'] as {
        rules: { http: { paths: { backend: { service: { name: string; port: unknown } } }[] } }[];
      }
    ).rules.flatMap((rule) => rule.http.paths.map((p) => p.backend.service));
    expect(backends.map((service) => service.name)).not.toContain('books-portal-metrics');
    expect(find('Service', 'books-portal')['spec']).toMatchObject({ ports: [{ port: 80, targetPort: 'http' }] });
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

  it('have the Books API believe one proxy hop, and let only the ingress controller reach its pods', () => {
    const api = find('Deployment', 'books-api');
    expect(envOf(api, 'books-api').get('TRUST_PROXY')?.value).toBe('1');
    const apiLabels = workloadSpec(api).template.metadata.labels;
    const policies = manifests.filter((m) => {
      if (m.kind !== 'NetworkPolicy') return false;
      const spec = m['spec'] as { podSelector: { matchLabels?: Record<string, string> }; policyTypes: string[] };
      const selects = Object.entries(spec.podSelector.matchLabels ?? {}).every(([k, v]) => apiLabels[k] === v);
      return selects && spec.policyTypes.includes('Ingress');
    });
    const sources = policies.flatMap(
      (policy) =>
        (policy['spec'] as { ingress?: { from?: { namespaceSelector?: unknown; podSelector?: unknown }[] }[] })
          .ingress ?? [],
    );
    // A hop count trusts whoever connects: only the default deny and the ingress controller's allowance may apply.
    expect(sources.flatMap((rule) => rule.from ?? [])).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } },
    ]);
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
});
