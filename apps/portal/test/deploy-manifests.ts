/** The files a kustomization.yaml lists, parsed as a cluster would receive them (before kustomize's transformers). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const DEPLOY_DIR = fileURLToPath(new URL('../../../deploy/kubernetes/', import.meta.url));
export const MEMORY_DEPLOY_DIR = fileURLToPath(new URL('../../../deploy/kubernetes-memory/', import.meta.url));
export const NAMESPACED_DEPLOY_DIR = fileURLToPath(new URL('../../../deploy/kubernetes-namespaced/', import.meta.url));

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface Kustomization {
  resources: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
}

export function kustomization(dir = DEPLOY_DIR): Kustomization {
  return parseAllDocuments(readFileSync(`${dir}kustomization.yaml`, 'utf8'))[0]?.toJS() as Kustomization;
}

/** The documents of one file of a kustomization directory (a resource or a patch). */
export function readManifestFile(dir: string, file: string): Manifest[] {
  return parseAllDocuments(readFileSync(`${dir}${file}`, 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map(String).join('; ')}`);
    return doc.toJS() as Manifest;
  });
}

export function loadManifests(dir = DEPLOY_DIR): Manifest[] {
  return kustomization(dir).resources.flatMap((file) => readManifestFile(dir, file));
}

export function findManifest(manifests: readonly Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is missing from the manifests`);
  return found;
}

export interface Probe {
  httpGet?: { path: string; port: string };
  exec?: { command: string[] };
  tcpSocket?: { port: string };
}

export interface Container {
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

export interface PodSpec {
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

export interface WorkloadSpec {
  replicas?: number;
  serviceName?: string;
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  volumeClaimTemplates?: { metadata: { name: string } }[];
}

export const workloadSpec = (workload: Manifest): WorkloadSpec => workload['spec'] as WorkloadSpec;

export const podSpec = (workload: Manifest): PodSpec => workloadSpec(workload).template.spec;

export const envOf = (workload: Manifest, container: string) =>
  new Map(
    (podSpec(workload).containers.find((c) => c.name === container)?.env ?? []).map((variable) => [
      variable.name,
      variable,
    ]),
  );
