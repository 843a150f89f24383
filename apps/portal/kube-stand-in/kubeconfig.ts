/** A kubeconfig that points a real client (kubectl, @kubernetes/client-node) at the stand-in. */
import { writeFileSync } from 'node:fs';

export interface KubeconfigTarget {
  /** https://host:port */
  url: string;
  token: string;
  /** PEM of the authority that signed the stand-in's serving certificate. */
  certificateAuthority: string;
  contextName?: string;
}

export function kubeconfigYaml({
  url,
  token,
  certificateAuthority,
  contextName = 'kube-stand-in',
}: KubeconfigTarget): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${contextName}`,
    '  cluster:',
    `    server: ${url}`,
    `    certificate-authority-data: ${Buffer.from(certificateAuthority).toString('base64')}`,
    'users:',
    '- name: books-portal',
    '  user:',
    `    token: ${JSON.stringify(token)}`,
    'contexts:',
    `- name: ${contextName}`,
    '  context:',
    `    cluster: ${contextName}`,
    '    user: books-portal',
    `current-context: ${contextName}`,
    '',
  ].join('\n');
}

export function writeKubeconfig(path: string, target: KubeconfigTarget): void {
  writeFileSync(path, kubeconfigYaml(target), { mode: 0o600 });
}
