import 'server-only';

/** Why a call to Azure failed, for people: never a token or a raw stack; and when to try again if Azure said. */
export function armFailure(error: unknown): { reason: string; retryAfterMs?: number } {
  const status = (error as { statusCode?: unknown }).statusCode;
  const headers = (error as { response?: { headers?: { get?: (name: string) => string | undefined } } }).response
    ?.headers;
  const retryAfter = Number(headers?.get?.('retry-after'));
  const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
  if (status === 429) {
    return {
      reason: 'Azure Resource Manager is throttling the portal’s calls (429)',
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  if (status === 401 || status === 403) {
    return { reason: `Azure Resource Manager refused the portal’s credentials (${status})` };
  }
  if (typeof status === 'number') return { reason: `Azure Resource Manager answered ${status}` };
  const name = (error as { name?: unknown }).name;
  if (name === 'CredentialUnavailableError' || name === 'AggregateAuthenticationError') {
    return { reason: 'No Azure credential is available to the portal (DefaultAzureCredential found none that works)' };
  }
  if (name === 'AbortError') return { reason: 'Azure Resource Manager did not answer in time' };
  return { reason: 'Azure Resource Manager could not be reached' };
}
