/**
 * The deployment manifests as kubectl itself builds them (`kubectl kustomize`, offline; .ci/run
 * installs kubectl before this suite): exactly the files the kustomization lists with the images
 * of its images: block, what the manifests render to, and the in-memory overlay.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  DEPLOY_DIR,
  envOf,
  kustomization,
  loadManifests,
  MEMORY_DEPLOY_DIR,
  NAMESPACED_DEPLOY_DIR,
  podSpec,
  workloadSpec,
  type Manifest,
  type WorkloadSpec,
} from '../test/deploy-manifests';

const run = promisify(execFile);
const manifests = loadManifests();

/** A folder's manifests as kubectl itself builds them (`kubectl kustomize`, offline). */
async function kustomize(dir: string): Promise<Manifest[]> {
  const { stdout } = await run('kubectl', ['kustomize', dir]);
  return parseAllDocuments(stdout).map((doc) => doc.toJS() as Manifest);
}

const identity = (m: Manifest) => `${m.kind}/${m.metadata.namespace ?? ''}/${m.metadata.name}`;

describe('Kubernetes manifests built by kubectl kustomize', () => {
  it('build with kubectl kustomize to exactly the files the kustomization lists, images from its images: block', async () => {
    const built = await kustomize(DEPLOY_DIR);
    expect(built.map(identity).sort()).toEqual(manifests.map(identity).sort());
    const images = new Map(
      (kustomization().images ?? []).map((image) => [image.name, `${image.newName}:${image.newTag}`]),
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
    const built = await kustomize(DEPLOY_DIR);
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

  it("render the portal's narrow permissions, its egress without the cluster's private ranges, and an Ingress without /metrics, in both variants", async () => {
    for (const dir of [DEPLOY_DIR, MEMORY_DEPLOY_DIR]) {
      const built = await kustomize(dir);
      const one = (kind: string, name: string) => {
        const found = built.filter((m) => m.kind === kind && m.metadata.name === name);
        expect(found, `${dir}: ${kind}/${name}`).toHaveLength(1);
        return found[0] as Manifest;
      };
      const rules = (m: Manifest) => m['rules'] as { apiGroups: string[]; resources: string[]; verbs: string[] }[];
      expect(rules(one('ClusterRole', 'books-portal'))).toEqual([
        {
          apiGroups: ['storage.azure.upbound.io'],
          resources: ['accounts'],
          verbs: ['create', 'delete', 'get', 'list', 'patch', 'watch'],
        },
        { apiGroups: ['azure.upbound.io'], resources: ['resourcegroups'], verbs: ['list', 'watch'] },
      ]);
      const events = one('Role', 'books-portal-events');
      expect(events.metadata.namespace).toBe('default');
      expect(rules(events)).toEqual([{ apiGroups: [''], resources: ['events'], verbs: ['list'] }]);
      expect(one('RoleBinding', 'books-portal-events')['subjects']).toEqual([
        { kind: 'ServiceAccount', name: 'books-portal', namespace: 'books' },
      ]);
      // No rule anywhere grants events across namespaces, or anything with a wildcard.
      const clusterRules = built.filter((m) => m.kind === 'ClusterRole').flatMap(rules);
      expect(clusterRules.flatMap((r) => r.resources)).not.toContain('events');
      expect(JSON.stringify(built.filter((m) => m.kind.endsWith('Role')))).not.toContain('"*"');

      const egress = built
        .filter((m) => m.kind === 'NetworkPolicy')
        .filter((m) => JSON.stringify(m['spec']).includes('"app.kubernetes.io/name":"books-portal"'))
        .flatMap(
          (m) =>
            (m['spec'] as { egress?: { to?: { ipBlock?: { cidr: string; except?: string[] } }[] }[] }).egress ?? [],
        );
      const blocks = egress.flatMap((rule) => (rule.to ?? []).flatMap((peer) => (peer.ipBlock ? [peer.ipBlock] : [])));
      for (const block of blocks.filter((b) => b.cidr === '0.0.0.0/0')) {
        expect(block.except?.sort()).toEqual(
          ['10.0.0.0/8', '100.64.0.0/10', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16'].sort(),
        );
      }
      expect(blocks.filter((b) => b.cidr === '0.0.0.0/0')).toHaveLength(1);

      const ingress = one('Ingress', 'books-service')['spec'] as {
        rules: { http: { paths: { path: string; backend: { service: { name: string } } }[] } }[];
      };
      const paths = ingress.rules.flatMap((rule) => rule.http.paths);
      expect(paths.map((p) => p.path)).not.toContain('/metrics');
      expect(paths.filter((p) => p.backend.service.name === 'books-api').map((p) => p.path)).not.toContain('/metrics');
    }
  }, 60_000);

  it('keep the in-memory variant at one replica of each app, with no PostgreSQL anywhere, and otherwise the same', async () => {
    const memory = await kustomize(MEMORY_DEPLOY_DIR);
    const base = await kustomize(DEPLOY_DIR);
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

  it('grant the namespaced (Crossplane v2) variant no cluster-wide write: writes only through team RoleBindings', async () => {
    const built = await kustomize(NAMESPACED_DEPLOY_DIR);
    type Rule = { apiGroups?: string[]; resources?: string[]; verbs?: string[] };
    type Binding = Manifest & { roleRef: { kind: string; name: string } };
    const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection', '*', 'escalate', 'bind'];
    const rulesOf = (kind: string, name: string) =>
      (built.find((m) => m.kind === kind && m.metadata.name === name)?.['rules'] as Rule[] | undefined) ?? [];
    const writes = (rules: Rule[]) => rules.flatMap((r) => (r.verbs ?? []).filter((v) => WRITE_VERBS.includes(v)));

    const clusterBindings = built.filter((m): m is Binding => m.kind === 'ClusterRoleBinding');
    expect(clusterBindings.length).toBeGreaterThan(0);
    for (const binding of clusterBindings) {
      expect(binding.roleRef.kind).toBe('ClusterRole');
      expect(writes(rulesOf('ClusterRole', binding.roleRef.name)), binding.metadata.name).toEqual([]);
    }
    // Every grant of write goes through a RoleBinding in a team namespace, all to one ClusterRole.
    const teamBindings = built.filter(
      (m): m is Binding => m.kind === 'RoleBinding' && (m as Binding).roleRef.name === 'books-portal-team',
    );
    expect(teamBindings.map((b) => b.metadata.namespace).sort()).toEqual(['payments', 'webshop']);
    for (const binding of teamBindings) {
      expect(binding.roleRef).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'books-portal-team',
      });
      expect(binding['subjects']).toEqual([{ kind: 'ServiceAccount', name: 'books-portal', namespace: 'books' }]);
    }
    const team = rulesOf('ClusterRole', 'books-portal-team');
    expect(team).toContainEqual({
      apiGroups: ['storage.azure.m.upbound.io'],
      resources: ['accounts'],
      verbs: ['create', 'delete', 'get', 'patch'],
    });
    // Nothing grants the v1 (cluster-scoped) groups any more.
    expect(JSON.stringify(built.filter((m) => m.kind === 'ClusterRole'))).not.toMatch(/"storage\.azure\.upbound\.io"/);
    const portal = built.find((m) => m.kind === 'Deployment' && m.metadata.name === 'books-portal');
    expect(portal && envOf(portal, 'portal').get('PORTAL_ACCOUNT_SCOPE')?.value).toBe('namespaced');
  }, 60_000);
});
