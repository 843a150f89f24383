import 'server-only';
import type { ResourceGroup } from '@/lib/platform/types';

/** The parts of a ResourceGroup object (azure.upbound.io or, namespaced, azure.m.upbound.io) the portal reads. */
export interface ResourceGroupObject {
  metadata?: { name?: string; namespace?: string };
  spec?: { forProvider?: { location?: unknown } };
  status?: { conditions?: { type?: string; status?: string }[]; atProvider?: { location?: unknown } };
}

function isReady(object: ResourceGroupObject): boolean {
  return (object.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

export function toResourceGroup(object: ResourceGroupObject): ResourceGroup | undefined {
  const name = object.metadata?.name;
  if (!name) return undefined;
  const location = object.status?.atProvider?.location ?? object.spec?.forProvider?.location;
  const namespace = object.metadata?.namespace;
  return {
    name,
    ready: isReady(object),
    ...(typeof location === 'string' ? { location } : {}),
    ...(namespace ? { namespace } : {}),
  };
}
