/**
 * Decoding what a client sends: an object checked for kind, apiVersion and metadata as the API
 * server's decoder does, its unknown fields under fieldValidation, and DeleteOptions.
 */
import type { ApiRequest } from './api-exchange.js';
import { fieldValidationOf } from './request-options.js';
import { apiVersionOf, type ResourceDef } from './resources.js';
import { badRequest, unsupportedMediaType } from './status.js';
import type { KubeObject } from './types.js';
import { isRecord, unknownFields } from './validation.js';

export async function parseObject(def: ResourceDef, request: ApiRequest): Promise<KubeObject> {
  const mediaType = request.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType !== 'application/json') throw unsupportedMediaType();
  const raw = (await request.readBody()).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    throw badRequest(
      `the object provided is unrecognized (must be of type ${def.kind}): couldn't get version/kind; json parse error: ${reason}`,
    );
  }
  if (!isRecord(parsed)) {
    throw badRequest(
      `the object provided is unrecognized (must be of type ${def.kind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  if (typeof parsed['kind'] !== 'string' || parsed['kind'] === '') {
    throw badRequest(`Object 'Kind' is missing in '${raw.slice(0, 1024)}'`);
  }
  const apiVersion = typeof parsed['apiVersion'] === 'string' ? parsed['apiVersion'] : '';
  if (apiVersion !== apiVersionOf(def)) {
    throw badRequest(
      `the API version in the data (${apiVersion}) does not match the expected API version (${apiVersionOf(def)})`,
    );
  }
  const metadata = parsed['metadata'] ?? {};
  if (!isRecord(metadata)) {
    throw badRequest(
      `unable to decode metadata: json: cannot unmarshal ${typeof metadata} into Go struct field ObjectMeta of type v1.ObjectMeta`,
    );
  }
  return { ...parsed, apiVersion, kind: parsed['kind'], metadata };
}

/** Unknown fields: refused under Strict, reported as warnings under Warn, as the API server does. */
export function checkFields(def: ResourceDef, object: KubeObject, request: ApiRequest): string[] {
  const unknown = unknownFields(def, object);
  if (unknown.length === 0) return [];
  const mode = fieldValidationOf(request.query);
  const messages = unknown.map((path) => `unknown field "${path}"`);
  if (mode === 'Strict') {
    const detail = messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
    throw badRequest(
      `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: strict decoding error: ${detail}`,
    );
  }
  return mode === 'Warn' ? messages : [];
}

export async function parseDeleteOptions(request: ApiRequest): Promise<Record<string, unknown>> {
  const raw = (await request.readBody()).toString('utf8').trim();
  if (raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw badRequest(`error decoding DeleteOptions: ${error instanceof Error ? error.message : 'invalid JSON'}`);
  }
  if (!isRecord(parsed)) throw badRequest('json: cannot unmarshal into Go value of type v1.DeleteOptions');
  return parsed;
}
