/**
 * The network paths the shipped manifests allow are only the ones the apps need: the NetworkPolicies
 * evaluated for each path as a cluster would. No kubectl needed: these read the files the
 * kustomization lists.
 *
 * NetworkPolicy, evaluated as the API defines it: a pod selected by no policy of a direction is
 * open in that direction; one selected by any is closed but for the union of their rules.
 */
import { describe, expect, it } from 'vitest';
import { findManifest, loadManifests, podSpec, workloadSpec } from './deploy-manifests';

const manifests = loadManifests();

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
  labels: workloadSpec(findManifest(manifests, kind, name)).template.metadata.labels,
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
