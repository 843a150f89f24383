/**
 * The patch formats the API server accepts for custom resources: JSON merge patch (RFC 7386), JSON
 * patch (RFC 6902, applied with fast-json-patch so `test` operations guard the change) and strategic
 * merge patch, which for a custom resource has no patch strategies and so merges like a merge patch.
 */
import jsonPatch, { type Operation } from 'fast-json-patch';
import { badRequest, StatusError, unsupportedMediaType } from './status.js';
import { isRecord } from './validation.js';

export const PATCH_MEDIA_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
] as const;

export type PatchMediaType = (typeof PATCH_MEDIA_TYPES)[number];

export function patchMediaType(contentType: string): PatchMediaType {
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const known = PATCH_MEDIA_TYPES.find((t) => t === mediaType);
  if (!known) throw unsupportedMediaType(PATCH_MEDIA_TYPES);
  return known;
}

/** RFC 7386 JSON merge patch: objects merge, null removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const result: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

// Errors in the patch document itself, as opposed to a patch that does not apply to this object.
const MALFORMED_PATCH = new Set([
  'SEQUENCE_NOT_AN_ARRAY',
  'OPERATION_NOT_AN_OBJECT',
  'OPERATION_OP_INVALID',
  'OPERATION_PATH_INVALID',
  'OPERATION_FROM_REQUIRED',
  'OPERATION_VALUE_REQUIRED',
  'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED',
]);

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw badRequest(`error decoding patch: ${error instanceof Error ? error.message : 'invalid JSON'}`);
  }
}

/** The patch document, parsed and checked for its shape; applying it may still fail on the object. */
export function parsePatch(mediaType: PatchMediaType, body: Buffer): unknown {
  const patch = parse(body);
  if (mediaType === 'application/json-patch+json') {
    if (!Array.isArray(patch)) {
      throw badRequest(
        `json: cannot unmarshal ${isRecord(patch) ? 'object' : typeof patch} into Go value of type jsonpatch.Patch`,
      );
    }
  } else if (!isRecord(patch)) {
    throw badRequest('json: cannot unmarshal into Go value of type map[string]interface {}');
  }
  return patch;
}

export function applyPatch(mediaType: PatchMediaType, current: Record<string, unknown>, patch: unknown): unknown {
  if (mediaType !== 'application/json-patch+json') return mergePatch(current, patch);
  try {
    return jsonPatch.applyPatch(structuredClone(current), patch as Operation[], true, false).newDocument;
  } catch (error) {
    if (!(error instanceof jsonPatch.JsonPatchError)) throw error;
    if (MALFORMED_PATCH.has(error.name)) throw badRequest(error.message.split('\n')[0] ?? error.message);
    // kube-apiserver answers a patch that does not apply (a failed `test`, a missing path) this way.
    throw new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
  }
}
