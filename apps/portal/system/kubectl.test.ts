/**
 * Real kubectl (the system's /usr/bin/kubectl; CI installs it when missing) against the Kubernetes
 * stand-in with the kubeconfig the stand-in writes: TLS verified against its authority, the token sent,
 * discovery, server-side printing, validation left to the server, watch-based waits and the write verbs.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestCluster, type TestCluster } from '../test/kubernetes-harness';

const KUBECTL_TIMEOUT_MS = 60_000;

let cluster: TestCluster;
let home: string;

beforeAll(async () => {
  cluster = await startTestCluster();
  // kubectl caches discovery under $HOME/.kube/cache; a fresh home keeps runs independent.
  home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
});

afterAll(async () => {
  await cluster.dispose();
  rmSync(home, { recursive: true, force: true });
});

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function environment(): NodeJS.ProcessEnv {
  return { ...process.env, HOME: home, KUBECONFIG: cluster.kubeconfigPath };
}

function kubectl(args: string[], stdin?: string): Promise<Result> {
  return new Promise((resolve) => {
    const child = execFile(
      'kubectl',
      args,
      { env: environment(), timeout: KUBECTL_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(stdin ?? '');
  });
}

function manifest(name: string): string {
  return [
    'apiVersion: storage.azure.upbound.io/v1beta1',
    'kind: Account',
    'metadata:',
    `  name: ${name}`,
    '  labels:',
    '    app.kubernetes.io/part-of: kubectl-test',
    'spec:',
    '  forProvider:',
    '    accountReplicationType: LRS',
    '    accountTier: Standard',
    '    location: westeurope',
    '    resourceGroupName: rg-books-dev',
    '',
  ].join('\n');
}

function account(name: string) {
  return cluster.standIn.accounts().find((a) => a.metadata.name === name);
}

describe('kubectl against the Kubernetes stand-in', { timeout: 180_000 }, () => {
  it('reads the server version and lists resource groups with the CRD printer columns', async () => {
    const version = await kubectl(['version', '-o', 'json']);
    expect(version.stderr).toBe('');
    expect(JSON.parse(version.stdout)).toMatchObject({
      serverVersion: { gitVersion: expect.stringMatching(/^v1\./) as unknown },
    });

    const groups = await kubectl(['get', 'resourcegroups']);
    expect(groups.code).toBe(0);
    const [header, ...rows] = groups.stdout.trim().split('\n');
    expect(header?.split(/\s+/)).toEqual(['NAME', 'READY', 'SYNCED', 'EXTERNAL-NAME', 'AGE']);
    const pending = rows.find((r) => r.startsWith('rg-sandbox-pending'))?.split(/\s+/);
    expect(pending?.slice(0, 4)).toEqual(['rg-sandbox-pending', 'False', 'True', 'rg-sandbox-pending']);
  });

  it('creates an account from a manifest, after a server dry run that stores nothing, and waits for Ready', async () => {
    const dryRun = await kubectl(['create', '-f', '-', '--dry-run=server'], manifest('stkubectlcreate'));
    expect(dryRun).toMatchObject({ code: 0, stderr: '' });
    expect(dryRun.stdout).toContain('account.storage.azure.upbound.io/stkubectlcreate created (server dry run)');
    expect(account('stkubectlcreate')).toBeUndefined();

    const file = join(home, 'account.yaml');
    writeFileSync(file, manifest('stkubectlcreate'));
    const created = await kubectl(['create', '-f', file]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain('account.storage.azure.upbound.io/stkubectlcreate created');
    expect(account('stkubectlcreate')?.metadata.labels).toEqual({ 'app.kubernetes.io/part-of': 'kubectl-test' });

    // kubectl wait lists and then watches the object until the condition holds.
    const ready = await kubectl(['wait', '--for=condition=Ready', 'account/stkubectlcreate', '--timeout=60s']);
    expect(ready.stdout).toContain('condition met');

    const again = await kubectl(['create', '-f', file]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('AlreadyExists');
  });

  it('refuses a manifest with an unknown field, as the server validates strictly for kubectl', async () => {
    const bad = manifest('stkubectlbad').replace('spec:\n', 'spec:\n  colour: blue\n');
    const refused = await kubectl(['create', '-f', '-'], bad);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('unknown field "spec.colour"');
    expect(account('stkubectlbad')).toBeUndefined();
  });

  it('annotates an account and patches it with a JSON patch whose test operation guards the change', async () => {
    await kubectl(['create', '-f', '-'], manifest('stkubectlpatch'));
    const annotated = await kubectl(['annotate', 'account', 'stkubectlpatch', 'example.com/owner=team-books']);
    expect(annotated).toMatchObject({ code: 0, stderr: '' });
    expect(account('stkubectlpatch')?.metadata.annotations?.['example.com/owner']).toBe('team-books');

    const guarded = (tier: string) =>
      JSON.stringify([
        { op: 'test', path: '/spec/forProvider/accountTier', value: tier },
        { op: 'add', path: '/spec/forProvider/accessTier', value: 'Cool' },
      ]);
    const refused = await kubectl(['patch', 'account', 'stkubectlpatch', '--type=json', '-p', guarded('Premium')]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('The request is invalid');
    expect(account('stkubectlpatch')?.spec?.['forProvider']).not.toHaveProperty('accessTier');

    const patched = await kubectl(['patch', 'account', 'stkubectlpatch', '--type=json', '-p', guarded('Standard')]);
    expect(patched).toMatchObject({ code: 0, stderr: '' });
    expect(patched.stdout).toContain('account.storage.azure.upbound.io/stkubectlpatch patched');
    expect(account('stkubectlpatch')?.spec?.['forProvider']).toMatchObject({ accessTier: 'Cool' });
  });

  it('replaces an account and reports a conflict when the manifest is stale', async () => {
    await kubectl(['create', '-f', '-'], manifest('stkubectlreplace'));
    // Once Ready the provider stops writing, so the object read is still current when it is replaced.
    await kubectl(['wait', '--for=condition=Ready', 'account/stkubectlreplace', '--timeout=60s']);
    const read = await kubectl(['get', 'account', 'stkubectlreplace', '-o', 'json']);
    const current = JSON.parse(read.stdout) as { spec: { forProvider: Record<string, unknown> } };
    current.spec.forProvider['accessTier'] = 'Hot';
    const replaced = await kubectl(['replace', '-f', '-'], JSON.stringify(current));
    expect(replaced).toMatchObject({ code: 0, stderr: '' });
    const stale = await kubectl(['replace', '-f', '-'], JSON.stringify(current));
    expect(stale.code).not.toBe(0);
    expect(stale.stderr).toContain('the object has been modified');
  });

  it('shows changes as they happen with kubectl get --watch', async () => {
    const watcher = spawn('kubectl', ['get', 'accounts', '--watch', '--output-watch-events'], { env: environment() });
    let output = '';
    watcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    watcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await eventually(() => (output.includes('NAME') ? true : undefined), 'kubectl to print the table header', 30_000);
      await kubectl(['create', '-f', '-'], manifest('stkubectlwatch'));
      await eventually(
        () => (/ADDED\s+stkubectlwatch/.test(output) ? true : undefined),
        `kubectl get --watch to print the new account (got: ${output})`,
        30_000,
      );
    } finally {
      watcher.kill();
    }
  });

  it('deletes an account after a server dry run that keeps it, waiting until the provider lets it go', async () => {
    await kubectl(['create', '-f', '-'], manifest('stkubectldelete'));
    const dryRun = await kubectl(['delete', 'account', 'stkubectldelete', '--dry-run=server']);
    expect(dryRun).toMatchObject({ code: 0, stderr: '' });
    expect(dryRun.stdout).toContain('deleted (server dry run)');
    expect(account('stkubectldelete')?.metadata.deletionTimestamp).toBeUndefined();

    const deleted = await kubectl(['delete', 'account', 'stkubectldelete', '--timeout=60s']);
    expect(deleted).toMatchObject({ code: 0, stderr: '' });
    expect(deleted.stdout).toContain('account.storage.azure.upbound.io "stkubectldelete" deleted');
    expect(account('stkubectldelete')).toBeUndefined();
  });
});
