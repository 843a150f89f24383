import type { AccountManifest } from '@/lib/platform/account-manifest';
import type { FieldErrors, StorageAccount, StorageAccountRequestInput } from '@/lib/platform/types';

/** Browser-side calls to the portal's own platform API routes. */

export type ApiResult<T> = { ok: true; value: T } | { ok: false; status: number; error: string; fields?: FieldErrors };

const RESOURCES = '/api/platform/resources';

export async function call<T>(input: string, init: RequestInit): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(input, {
      ...init,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...init.headers },
    });
  } catch {
    return { ok: false, status: 0, error: 'The portal could not be reached. Check your connection and try again.' };
  }
  const body = (await response.json().catch(() => undefined)) as
    (T & { error?: string; fields?: FieldErrors }) | undefined;
  if (response.ok && body) return { ok: true, value: body };
  return {
    ok: false,
    status: response.status,
    error: body?.error ?? `The portal answered ${response.status}.`,
    ...(body?.fields ? { fields: body.fields } : {}),
  };
}

const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** Creates the account; sending the same request again with the same key never creates a second one. */
export function createResource(request: StorageAccountRequestInput, idempotencyKey: string) {
  return call<{ item: StorageAccount }>(RESOURCES, jsonPost(request, { 'Idempotency-Key': idempotencyKey }));
}

export function validateResource(request: StorageAccountRequestInput) {
  return call<{ item: StorageAccount; manifest: AccountManifest }>(`${RESOURCES}?dryRun=true`, jsonPost(request));
}

export function deleteResource(name: string) {
  return call<{ item: { name: string } }>(`${RESOURCES}?name=${encodeURIComponent(name)}`, { method: 'DELETE' });
}
