/**
 * The deployment manifests as a cluster would receive them: every file kustomization.yaml lists,
 * parsed. RBAC is compared with the table of calls the portal's cluster client makes.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { CLUSTER_CALLS } from '../src/server/kubernetes/cluster-calls';

const deployDir = fileURLToPath(new URL('../../../deploy/kubernetes/', import.meta.url));

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
const find = (kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is missing from deploy/kubernetes`);
  return found;
};

interface Container {
  name: string;
  image: string;
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: Record<string, unknown>;
  livenessProbe?: Record<string, unknown>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
}

interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  securityContext?: Record<string, unknown>;
  containers: Container[];
  volumes?: { name: string; emptyDir?: Record<string, unknown> }[];
}

const deployments = manifests.filter((m) => m.kind === 'Deployment');
const podSpec = (deployment: Manifest): PodSpec =>
  (deployment['spec'] as { template: { spec: PodSpec } }).template.spec;

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
    for (const name of ['PORTAL_OIDC_CLIENT_SECRET', 'PORTAL_SESSION_SECRET', 'PORTAL_DATABASE_URL']) {
      expect(byName.get(name)?.value, name).toBeUndefined();
      expect(byName.get(name)?.valueFrom?.secretKeyRef?.name, name).toBe('books-portal-auth');
    }
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

  it('run both apps as non-root with a read-only root file system, no privilege escalation and no capabilities', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['books-api', 'books-portal']);
    for (const deployment of deployments) {
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

  it('make only emptyDir volumes writable, and mount every one', () => {
    for (const deployment of deployments) {
      const spec = podSpec(deployment);
      const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
      for (const volume of volumes.values()) expect(volume.emptyDir, `${volume.name} is an emptyDir`).toBeDefined();
      const mounted = spec.containers.flatMap((c) => (c.volumeMounts ?? []).map((m) => m.name));
      expect([...volumes.keys()].sort()).toEqual([...new Set(mounted)].sort());
    }
    const portalMounts = podSpec(find('Deployment', 'books-portal')).containers[0]?.volumeMounts?.map(
      (m) => m.mountPath,
    );
    expect(portalMounts).toContain('/app/apps/portal/.next/cache');
  });

  it('give every container probes, resource requests and limits, and a pinned image', () => {
    for (const deployment of deployments) {
      for (const container of podSpec(deployment).containers) {
        expect(container.readinessProbe, `${container.name} readiness`).toBeDefined();
        expect(container.livenessProbe, `${container.name} liveness`).toBeDefined();
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
      const target = deployments.find((d) => {
        const labels = (d['spec'] as { template: { metadata: { labels: Record<string, string> } } }).template.metadata
          .labels;
        return Object.entries(spec.selector).every(([k, v]) => labels[k] === v);
      });
      expect(target, `${service.metadata.name} selects a deployment`).toBeDefined();
      expect(target?.metadata.namespace).toBe(service.metadata.namespace);
      const portNames = podSpec(target as Manifest).containers.flatMap((c) => (c.ports ?? []).map((p) => p.name));
      for (const port of spec.ports) expect(portNames).toContain(port.targetPort);
    }
  });
});
