/** The query parameters that change how a request is carried out: dryRun, fieldValidation, watch. */
import { badRequest, StatusError } from './status.js';

// kube-apiserver ends a watch without timeoutSeconds after a random 30 to 60 minutes.
const MIN_WATCH_TIMEOUT_SECONDS = 1800;

type OptionsKind = 'CreateOptions' | 'DeleteOptions' | 'PatchOptions' | 'UpdateOptions';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export function checkDryRun(values: unknown[], kind: OptionsKind): boolean {
  if (values.length === 0) return false;
  const unsupported = values.filter((v) => v !== 'All');
  if (unsupported.length > 0) {
    throw new StatusError(
      422,
      'Invalid',
      `${kind}.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{${unsupported.map((v) => JSON.stringify(v)).join(', ')}}: supported values: "All"`,
      {
        group: 'meta.k8s.io',
        kind,
        causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value', field: 'dryRun' }],
      },
    );
  }
  return true;
}

export function dryRunRequested(query: URLSearchParams, kind: OptionsKind): boolean {
  return checkDryRun(query.getAll('dryRun'), kind);
}

export function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const value = query.get('fieldValidation');
  // Since Kubernetes 1.27 the server warns about unknown fields unless told otherwise.
  if (value === null || value === '') return 'Warn';
  if (value === 'Ignore' || value === 'Warn' || value === 'Strict') return value;
  throw badRequest(`fieldValidation: Unsupported value: "${value}": supported values: "Ignore", "Strict", "Warn"`);
}

export function timeoutSecondsOf(query: URLSearchParams): number {
  const raw = query.get('timeoutSeconds');
  if (raw === null || raw === '') return MIN_WATCH_TIMEOUT_SECONDS * (1 + Math.random());
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw badRequest(`timeoutSeconds: Invalid value: "${raw}"`);
  return value;
}

export function isWatch(query: URLSearchParams): boolean {
  const watch = query.get('watch');
  return watch === 'true' || watch === '1';
}
