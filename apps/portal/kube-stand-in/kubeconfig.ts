/** A kubeconfig that points a real client at the stand-in with its bearer token. */
import { writeFileSync } from 'node:fs';

export interface KubeconfigTarget {
  url: string;
  token: string;
  contextName?: string;
}

export function kubeconfigYaml({ url, token, contextName = 'kube-stand-in' }: KubeconfigTarget): string {
  // insecure-skip-tls-verify is what lets @kubernetes/client-node talk plain http to a local server.
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${contextName}`,
    '  cluster:',
    `    server: ${url}`,
    '    insecure-skip-tls-verify: true',
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
