/**
 * Server-side printing (meta.k8s.io Table), which `kubectl get` asks for in its Accept header: the
 * columns of Crossplane's managed-resource CRDs (additionalPrinterColumns) and kubectl's event columns,
 * with times rendered as kube-apiserver renders them.
 */
import { EVENTS, NAMESPACES, type ResourceDef } from './resources.js';
import { badRequest } from './status.js';
import type { KubeObject } from './types.js';

export type TableVersion = 'v1' | 'v1beta1';

interface ColumnDefinition {
  name: string;
  type: 'string' | 'date' | 'integer';
  format: string;
  description: string;
  priority: number;
}

interface Column extends ColumnDefinition {
  cell: (object: KubeObject, now: Date) => string | number | null;
}

const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/**
 * apimachinery's duration.HumanDuration: coarser the older, "<invalid>" for a time in the future
 * beyond clock skew.
 */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.trunc(milliseconds / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

function age(timestamp: unknown, now: Date): string | null {
  if (typeof timestamp !== 'string') return null;
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? null : humanDuration(now.getTime() - at);
}

function conditionStatus(object: KubeObject, type: string): string | null {
  const conditions = object.status?.['conditions'];
  if (!Array.isArray(conditions)) return null;
  const found = (conditions as { type?: unknown; status?: unknown }[]).find((c) => c.type === type);
  return typeof found?.status === 'string' ? found.status : null;
}

const nameColumn: Column = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: NAME_DESCRIPTION,
  priority: 0,
  cell: (o) => o.metadata.name ?? '',
};

// Crossplane's managed resources all carry these additionalPrinterColumns.
const MANAGED_COLUMNS: readonly Column[] = [
  nameColumn,
  { name: 'READY', type: 'string', format: '', description: '', priority: 0, cell: (o) => conditionStatus(o, 'Ready') },
  {
    name: 'SYNCED',
    type: 'string',
    format: '',
    description: '',
    priority: 0,
    cell: (o) => conditionStatus(o, 'Synced'),
  },
  {
    name: 'EXTERNAL-NAME',
    type: 'string',
    format: '',
    description: '',
    priority: 0,
    cell: (o) => o.metadata.annotations?.['crossplane.io/external-name'] ?? null,
  },
  {
    name: 'AGE',
    type: 'date',
    format: '',
    description: '',
    priority: 0,
    cell: (o, now) => age(o.metadata.creationTimestamp, now),
  },
];

function field(object: KubeObject, key: string): unknown {
  return object[key];
}

function text(object: KubeObject, key: string): string {
  const value = object[key];
  return typeof value === 'string' ? value : '';
}

function involvedObject(event: KubeObject): string {
  const involved = field(event, 'involvedObject') as { kind?: string; name?: string } | undefined;
  return `${(involved?.kind ?? '').toLowerCase()}/${involved?.name ?? ''}`;
}

// The columns kubectl's own printer gives core/v1 events.
const EVENT_COLUMNS: readonly Column[] = [
  {
    name: 'Last Seen',
    type: 'string',
    format: '',
    description: 'Time when last event occurred',
    priority: 0,
    cell: (e, now) => age(field(e, 'lastTimestamp') ?? field(e, 'eventTime'), now) ?? '<unknown>',
  },
  {
    name: 'Type',
    type: 'string',
    format: '',
    description: 'Type of this event',
    priority: 0,
    cell: (e) => text(e, 'type'),
  },
  {
    name: 'Reason',
    type: 'string',
    format: '',
    description: 'Short, machine understandable string',
    priority: 0,
    cell: (e) => text(e, 'reason'),
  },
  {
    name: 'Object',
    type: 'string',
    format: '',
    description: 'The object this event is about',
    priority: 0,
    cell: involvedObject,
  },
  {
    name: 'Message',
    type: 'string',
    format: '',
    description: 'A human-readable description',
    priority: 0,
    cell: (e) => text(e, 'message'),
  },
];

// The columns kubectl's own printer gives core/v1 namespaces.
const NAMESPACE_COLUMNS: readonly Column[] = [
  nameColumn,
  {
    name: 'Status',
    type: 'string',
    format: '',
    description: 'The status of the namespace',
    priority: 0,
    cell: (o) => (typeof o.status?.['phase'] === 'string' ? o.status['phase'] : ''),
  },
  {
    name: 'Age',
    type: 'string',
    format: '',
    description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
    priority: 0,
    cell: (o, now) => age(o.metadata.creationTimestamp, now),
  },
];

function columnsOf(def: ResourceDef): readonly Column[] {
  if (def === NAMESPACES) return NAMESPACE_COLUMNS;
  return def === EVENTS ? EVENT_COLUMNS : MANAGED_COLUMNS;
}

interface MediaRange {
  type: string;
  params: Map<string, string>;
}

function parseAccept(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map((part) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim());
      return {
        type: type.toLowerCase(),
        params: new Map(
          params.map((p) => {
            const [key = '', value = ''] = p.split('=');
            return [key.trim().toLowerCase(), value.trim()] as const;
          }),
        ),
      };
    })
    .filter((range) => range.type !== '');
}

/**
 * The Table version the Accept header asks for first, or undefined for plain objects. Like
 * kube-apiserver, the first acceptable media range wins, so `application/json` before a Table range
 * means JSON.
 */
export function requestedTable(accept: string | undefined): TableVersion | undefined {
  for (const range of parseAccept(accept ?? '')) {
    const as = range.params.get('as');
    if (as === undefined) {
      if (['application/json', 'application/*', '*/*'].includes(range.type)) return undefined;
      continue;
    }
    const version = range.params.get('v');
    if (
      as === 'Table' &&
      range.params.get('g') === 'meta.k8s.io' &&
      (version === 'v1' || version === 'v1beta1') &&
      range.type === 'application/json'
    ) {
      return version;
    }
  }
  return undefined;
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function includeObjectOf(query: URLSearchParams): IncludeObject {
  const value = query.get('includeObject');
  if (value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw badRequest(`includeObject: Unsupported value: "${value}": supported values: "Metadata", "None", "Object"`);
}

function rowObject(object: KubeObject, include: IncludeObject, version: TableVersion): unknown {
  if (include === 'Object') return object;
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: object.metadata };
}

export interface TableOptions {
  version: TableVersion;
  include: IncludeObject;
  listMetadata: Record<string, unknown>;
  /** Watch events after the first may leave the column definitions out, as kube-apiserver does. */
  withColumns?: boolean;
  now?: Date;
}

export function toTable(def: ResourceDef, objects: KubeObject[], options: TableOptions): Record<string, unknown> {
  const columns = columnsOf(def);
  const now = options.now ?? new Date();
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${options.version}`,
    metadata: options.listMetadata,
    columnDefinitions: options.withColumns === false ? [] : columns.map(({ cell: _cell, ...definition }) => definition),
    rows: objects.map((object) => ({
      cells: columns.map((column) => column.cell(object, now)),
      ...(options.include === 'None' ? {} : { object: rowObject(object, options.include, options.version) }),
    })),
  };
}

export function tableContentType(version: TableVersion): string {
  return `application/json;as=Table;v=${version};g=meta.k8s.io`;
}
