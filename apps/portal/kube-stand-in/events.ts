/**
 * core/v1 events as client-go's event recorder writes them: for a cluster-scoped object in the
 * "default" namespace, for a namespaced one in its own namespace (involvedObject.namespace set), named <object>.<hex>, and aggregated (count, lastTimestamp) when the same
 * reason and message repeat.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { apiVersionOf, EVENTS, type ResourceDef } from './resources.js';
import type { ObjectStore } from './store.js';
import { kubeTime, type KubeObject } from './types.js';

export const EVENT_NAMESPACE_FOR_CLUSTER_OBJECTS = 'default';
export const EVENT_FIELD_SELECTORS = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.name',
  'metadata.namespace',
] as const;

export type EventType = 'Normal' | 'Warning';

export class EventRecorder {
  constructor(private readonly store: ObjectStore) {}

  record(def: ResourceDef, involved: KubeObject, type: EventType, reason: string, message: string): void {
    const component = `managed/${def.group}/${def.version}, kind=${def.kind.toLowerCase()}`;
    const now = kubeTime();
    const namespace = involved.metadata.namespace ?? EVENT_NAMESPACE_FOR_CLUSTER_OBJECTS;
    const existing = this.store
      .list(EVENTS, namespace)
      .find(
        (e) =>
          (e['involvedObject'] as Record<string, unknown>)['uid'] === involved.metadata.uid &&
          e['reason'] === reason &&
          e['message'] === message &&
          e['type'] === type,
      );
    if (existing) {
      existing['count'] = Number(existing['count'] ?? 1) + 1;
      existing['lastTimestamp'] = now;
      this.store.put(EVENTS, existing);
      return;
    }
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${involved.metadata.name}.${randomBytes(8).toString('hex')}`,
        namespace,
        uid: randomUUID(),
        creationTimestamp: now,
      },
      involvedObject: {
        kind: def.kind,
        ...(involved.metadata.namespace ? { namespace: involved.metadata.namespace } : {}),
        name: involved.metadata.name,
        uid: involved.metadata.uid,
        apiVersion: apiVersionOf(def),
        resourceVersion: involved.metadata.resourceVersion,
      },
      reason,
      message,
      source: { component },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: component,
      reportingInstance: '',
    };
    this.store.put(EVENTS, event);
  }
}
