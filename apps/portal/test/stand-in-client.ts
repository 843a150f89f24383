/**
 * Raw requests to the Kubernetes API stand-in, as kubectl would send them: over TLS trusting the
 * stand-in's certificate authority, with its bearer token. For tests that change objects behind
 * the portal's back.
 */
import { request } from 'node:https';
import type { StandIn } from '../kube-stand-in/index';

export interface RawAnswer<T> {
  status: number;
  body: T;
}

export function standInRequest<T = unknown>(
  standIn: StandIn,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<RawAnswer<T>> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const call = request(
      `${standIn.url}${path}`,
      {
        method,
        ca: standIn.certificateAuthority,
        headers: {
          authorization: `Bearer ${standIn.token}`,
          ...(payload === undefined
            ? {}
            : { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as T });
          } catch (error) {
            reject(new Error(`not JSON (${response.statusCode}): ${text.slice(0, 200)}`, { cause: error }));
          }
        });
      },
    );
    call.on('error', reject);
    call.end(payload);
  });
}

/**
 * A call to the ARM stand-in on a storage account, as anything editing Azure outside Crossplane
 * would make it (the API version the SDK sends); answers the status.
 */
export function armAccountRequest(
  standIn: StandIn,
  method: string,
  resourceGroup: string,
  name: string,
  body?: unknown,
): Promise<number> {
  const path = `/subscriptions/${standIn.arm.subscriptionId}/resourceGroups/${resourceGroup}/providers/Microsoft.Storage/storageAccounts/${name}`;
  return new Promise((resolve, reject) => {
    const call = request(
      `${standIn.arm.url}${path}?api-version=2023-05-01`,
      {
        method,
        ca: standIn.certificateAuthority,
        headers: { authorization: `Bearer ${standIn.arm.token}`, 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    call.on('error', reject);
    call.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
