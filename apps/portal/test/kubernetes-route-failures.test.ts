/**
 * The platform API route handlers when the cluster fails them: RBAC forbids a call, connections are
 * reset or refused, the token is rejected, the kubeconfig cannot be read. The answers say what went
 * wrong without leaking what the API server said about the portal's service account.
 */
import { describe, expect, it, vi } from 'vitest';
import { eventually, startTestCluster } from './kubernetes-harness';
import { del, get, json, post, request, routes, clusterForRouteTests } from './kubernetes-routes-harness';
import { captureLogLines } from './log-lines';

const cluster = clusterForRouteTests();

describe('platform API on a Kubernetes cluster', () => {
  it('answers 403 saying what the portal may not do when RBAC forbids the call, naming no service account', async () => {
    const logged = captureLogLines();
    const answers: string[] = [];
    const errorOf = async (response: Response) => {
      const { error } = await json<{ error: string }>(response);
      answers.push(error);
      return error;
    };
    const { resources } = await routes();
    // The portal lists once; it lists again when its watch can no longer resume (410 Gone).
    await cluster.standIn.setUnreachable('reset');
    cluster.standIn.fillAccounts(1, 'stforbidlist');
    cluster.standIn.compactHistory();
    cluster.standIn.forbid({ verbs: ['list'], resources: ['accounts'] });
    await cluster.standIn.setUnreachable(null);
    const list = await eventually(async () => {
      const response = await resources.GET(get('/api/platform/resources'));
      return response.status === 403 ? response : undefined;
    }, 'the forbidden list to be reported');
    expect(await errorOf(list)).toBe(
      "The portal is not allowed to list storage accounts; ask the platform team to check the portal's permissions in the cluster",
    );

    cluster.standIn.forbid({ verbs: ['create'] });
    const create = await resources.POST(post(request({ name: 'stforbid01' })));
    expect(create.status).toBe(403);
    expect(await errorOf(create)).toMatch(/^The portal is not allowed to (validate|create) the storage account; ask/);

    await cluster.standIn.clearFaults();
    expect((await resources.POST(post(request({ name: 'stforbid02' })))).status).toBe(201);
    cluster.standIn.forbid({ verbs: ['*'], resources: ['events'] });
    const { data } = await routes();
    await expect(data.getStorageAccountActivity('stforbid02')).rejects.toMatchObject({ status: 403 });

    cluster.standIn.forbid({ verbs: ['patch'] });
    const annotation = await resources.DELETE(del('stforbid02'));
    expect(annotation.status).toBe(403);
    expect(await errorOf(annotation)).toContain('record the deletion request');

    cluster.standIn.forbid({ verbs: ['delete'] });
    const deletion = await resources.DELETE(del('stforbid02'));
    expect(deletion.status).toBe(403);
    expect(await errorOf(deletion)).toContain('not allowed to delete the storage account');

    // The API server's text named the service account: it reached the log, never an answer.
    expect(answers).toHaveLength(4);
    for (const answer of answers) expect(answer).not.toMatch(/system:serviceaccount|User "/);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'the platform cluster refused to delete the storage account',
        clusterMessage: expect.stringContaining(
          `User "${cluster.standIn.user}" cannot delete resource "accounts" in API group "storage.azure.upbound.io"`,
        ),
      }),
    );
  });

  it('answers 503 saying the cluster is unreachable when connections are reset or refused, the inventory 200 from the ledger', async () => {
    const { resources, resourceGroups } = await routes();
    await cluster.standIn.setUnreachable('reset');
    // Reads are answered from the watch-fed cache until it notices its watch is gone.
    // An account the portal has no intent for cannot be answered from the ledger: 503.
    const reset = await eventually(async () => {
      const response = await resources.GET(get('/api/platform/resources?name=stnointent01'));
      return response.status === 404 ? undefined : response;
    }, 'the cache to notice the cluster is unreachable');
    expect(reset.status).toBe(503);
    // The inventory answers 200 from the ledger, saying the cluster could not be read.
    const listed = await resources.GET(get('/api/platform/resources'));
    expect(listed.status).toBe(200);
    expect((await json<{ clusterAvailable: boolean }>(listed)).clusterAvailable).toBe(false);
    const resetBody = await json<{ error: string }>(reset);
    expect(resetBody.error).toMatch(/^The platform cluster is unreachable \(connection (reset|closed)\)/);
    expect(JSON.stringify(resetBody)).not.toMatch(/at .*\.(js|ts):\d+/);

    await cluster.standIn.setUnreachable('refuse');
    const refused = await eventually(async () => {
      const response = await resourceGroups.GET(get('/api/platform/resource-groups'));
      return /connection refused/.test(await response.clone().text()) ? response : undefined;
    }, 'the refused connection to be reported');
    expect(refused.status).toBe(503);
    expect((await json<{ error: string }>(refused)).error).toContain('unreachable (connection refused)');
    const create = await resources.POST(post(request({ name: 'stoffline01' })));
    expect(create.status).toBe(503);
  });

  it('answers 403 naming the portal credentials when the cluster rejects its token', async () => {
    const wrongToken = await startTestCluster({ token: 'not-the-token' });
    const { writeKubeconfig } = await import('../kube-stand-in/index');
    writeKubeconfig(wrongToken.kubeconfigPath, {
      url: wrongToken.standIn.url,
      token: 'a-stale-token',
      certificateAuthority: wrongToken.standIn.certificateAuthority,
    });
    vi.stubEnv('KUBECONFIG', wrongToken.kubeconfigPath);
    try {
      const { resources } = await routes();
      const response = await resources.GET(get('/api/platform/resources'));
      expect(response.status).toBe(403);
      expect((await json<{ error: string }>(response)).error).toContain("refused the portal's credentials");
    } finally {
      await wrongToken.dispose();
    }
  });

  it('answers 503 saying the cluster is not configured when the kubeconfig cannot be read, the inventory 200 from the ledger', async () => {
    vi.stubEnv('KUBECONFIG', '/nonexistent/kubeconfig');
    const { resources } = await routes();
    const response = await resources.GET(get('/api/platform/resources?name=stnointent02'));
    expect(response.status).toBe(503);
    expect((await json<{ error: string }>(response)).error).toMatch(
      /^The platform cluster configuration cannot be read|not configured/,
    );
    const listed = await resources.GET(get('/api/platform/resources'));
    expect(listed.status).toBe(200);
    expect((await json<{ clusterAvailable: boolean }>(listed)).clusterAvailable).toBe(false);
  });
});
