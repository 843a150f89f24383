import 'server-only';
import { stringify } from 'yaml';
import { buildAccountManifest, PORTAL_KEYS } from '@/lib/platform/account-manifest';
import type { PlatformEvent, ResourceGroup, StorageAccountRequest } from '@/lib/platform/types';
import { applyPlannedPatch, planChange, resyncAnnotations } from '../../model/account-change-plan';
import { toStorageAccount } from '../../model/account-mapper';
import type { AccountObject } from '../../model/account-object';
import type { PlatformBackend, RequestContext } from '../../model/backend';
import { withLastApplied } from '../../model/change-annotations';
import { generatedAccountName } from '../../model/resource-name';

/**
 * Development mode, as the specification's "Development mode" section says: the list is empty,
 * a detail read returns a synthetic record for any name, a create is accepted and answers with
 * a generated name, a delete is accepted. Nothing is stored and no cluster is contacted.
 */

/** Mocked approved resource groups, so the workflow can be walked without a cluster. */
const MOCK_RESOURCE_GROUPS: readonly ResourceGroup[] = [
  { name: 'rg-platform-demo', location: 'westeurope', ready: true },
  { name: 'rg-books-dev', location: 'westeurope', ready: true },
  { name: 'rg-books-prod', location: 'northeurope', ready: true },
];

const MOCK_USER = 'development-mode';
const MOCK_RESOURCE_VERSION = '1';

const SYNTHETIC_REQUEST: Omit<StorageAccountRequest, 'name'> = {
  application: 'demo',
  environment: 'dev',
  resourceGroup: 'rg-platform-demo',
  location: 'westeurope',
  accountKind: 'StorageV2',
  accountTier: 'Standard',
  replicationType: 'LRS',
  accessTier: 'Hot',
  publicNetworkAccess: false,
  allowedIpRanges: [],
  hierarchicalNamespace: false,
  sftpEnabled: false,
  nfsv3Enabled: false,
  httpsOnly: true,
  sharedKeyAccess: true,
};

/** A whole Account object as a reconciled cluster would hold it. */
function syntheticObject(name: string): AccountObject {
  const created = new Date(Date.now() - 60 * 60 * 1000).toISOString();
  const manifest = buildAccountManifest(
    { ...SYNTHETIC_REQUEST, name },
    { requestedBy: MOCK_USER, requestId: 'mock-request', requestedAt: created },
  );
  return {
    ...manifest,
    metadata: {
      ...manifest.metadata,
      name,
      uid: '00000000-0000-4000-8000-000000000000',
      // Nothing is stored in development mode, so every read is this one version.
      resourceVersion: MOCK_RESOURCE_VERSION,
      creationTimestamp: created,
      annotations: { ...manifest.metadata.annotations, [PORTAL_KEYS.externalName]: name },
    },
    status: {
      conditions: [
        { type: 'Synced', status: 'True', reason: 'ReconcileSuccess', lastTransitionTime: created },
        { type: 'Ready', status: 'True', reason: 'Available', lastTransitionTime: created },
      ],
      atProvider: {
        ...manifest.spec.forProvider,
        id: `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/${SYNTHETIC_REQUEST.resourceGroup}/providers/Microsoft.Storage/storageAccounts/${name}`,
        primaryLocation: SYNTHETIC_REQUEST.location,
        primaryBlobEndpoint: `https://${name}.blob.core.windows.net/`,
        primaryWebEndpoint: `https://${name}.z6.web.core.windows.net/`,
      },
    },
  };
}

function manifestFor(request: StorageAccountRequest, context: RequestContext) {
  return withLastApplied(
    buildAccountManifest(request, {
      requestId: context.requestId,
      requestedBy: context.requestedBy,
      requestedBySubject: context.principal.subject,
      requestedAt: new Date().toISOString(),
    }),
  );
}

function acceptedObject(request: StorageAccountRequest, context: RequestContext): AccountObject {
  const manifest = manifestFor(request, context);
  const name = request.name ?? generatedAccountName(request.application);
  return {
    ...manifest,
    metadata: { ...manifest.metadata, name, creationTimestamp: new Date().toISOString() },
  };
}

export function createMockBackend(): PlatformBackend {
  return {
    mode: 'mock',
    list: async () => [],
    get: async (name) => toStorageAccount(syntheticObject(name)),
    create: async (request, context) => toStorageAccount(acceptedObject(request, context)),
    validate: async (request, context) => ({
      item: toStorageAccount(acceptedObject(request, context)),
      manifest: manifestFor(request, context),
    }),
    delete: async (name) => ({ name }),
    // A change is checked like on a cluster (version, rules) and answered as applied; nothing is kept.
    change: async (name, change, context) => {
      const object = syntheticObject(name);
      const { patch, changes } = planChange(object, change, context);
      if (!patch) return { item: toStorageAccount(object), changes };
      const changed = applyPlannedPatch(object, patch);
      // As if Azure had applied it at once: what it reports follows the new spec.
      const atProvider: Record<string, unknown> = { ...changed.status?.atProvider, ...changed.spec?.forProvider };
      if (!changed.spec?.forProvider?.networkRules) delete atProvider['networkRules'];
      return { item: toStorageAccount({ ...changed, status: { ...changed.status, atProvider } }), changes };
    },
    resync: async (name, context) => {
      const object = syntheticObject(name);
      const annotations = { ...object.metadata?.annotations, ...resyncAnnotations(context) };
      return toStorageAccount({ ...object, metadata: { ...object.metadata, annotations } });
    },
    // Nothing is stored in development mode: a remediation is answered as the object it names.
    writeAccount: async (write) =>
      toStorageAccount(write.kind === 'create' ? write.manifest : syntheticObject(write.name)),
    listResourceGroups: async () => MOCK_RESOURCE_GROUPS.map((group) => ({ ...group })),
    events: async (name): Promise<PlatformEvent[]> => {
      const created = new Date(Date.now() - 60 * 60 * 1000).toISOString();
      return [
        {
          type: 'Normal',
          reason: 'CreatedExternalResource',
          message: `Successfully requested creation of external resource ${name}`,
          count: 1,
          firstTimestamp: created,
          lastTimestamp: created,
        },
      ];
    },
    manifestYaml: async (name) => stringify(syntheticObject(name)),
  };
}
