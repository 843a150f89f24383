import { createRemoteJWKSet, customFetch, type FlattenedJWSInput, type JWSHeaderParameters } from 'jose';
import { allowInsecureRequests, discoveryRequest, processDiscoveryResponse } from 'oauth4webapi';

/** The asymmetric algorithms a provider token may be signed with (the RS256, PS256 and ES256 families). */
export const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

/** The provider could not be reached and nothing usable is cached: a provider token answers 503. */
export class ProviderUnavailableError extends Error {
  override readonly name = 'ProviderUnavailableError';
  constructor(
    readonly retryAfterSeconds: number,
    options?: ErrorOptions,
  ) {
    super('Identity provider unavailable', options);
  }
}

/** A fetch refused because the previous one was too recent. */
class TooSoonError extends Error {
  override readonly name = 'TooSoonError';
}

interface ProviderKeysOptions {
  /** AUTH_OIDC_ISSUER: discovery is at <issuer>/.well-known/openid-configuration. */
  readonly issuer: string;
  /**
   * Discovery and the key set are fetched at most this often (the contract's 30 s): a token with an
   * unknown kid, a provider token while no keys are cached, and the background rounds all share it.
   */
  readonly refetchIntervalMs?: number;
  /** Keys are fetched again this often in the background, so keys the provider dropped are dropped here too. */
  readonly refreshIntervalMs?: number;
  readonly timeoutMs?: number;
}

/** What discovery tells about the provider, for verification and for /docs. */
export interface ProviderMetadata {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly authorizationEndpoint: string | undefined;
  readonly tokenEndpoint: string | undefined;
  /** The provider's signing algorithms that are asymmetric; all of them when it publishes no list. */
  readonly algorithms: readonly string[];
}

/** At most one attempt per interval, failed attempts included. */
class Gate {
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  constructor(private readonly intervalMs: number) {}

  /** Records an attempt now, or throws TooSoonError when the last one was less than an interval ago. */
  attempt(): void {
    const now = Date.now();
    if (now - this.lastAttemptAt < this.intervalMs) throw new TooSoonError();
    this.lastAttemptAt = now;
  }

  /** Seconds until the next attempt is allowed (at least 1). */
  secondsToWait(): number {
    return Math.max(1, Math.ceil((this.lastAttemptAt + this.intervalMs - Date.now()) / 1000));
  }
}

function metadataFrom(document: Record<string, unknown>): ProviderMetadata {
  const text = (name: string) => (typeof document[name] === 'string' ? document[name] : undefined);
  const jwksUri = text('jwks_uri');
  if (jwksUri === undefined) throw new Error('the discovery document has no jwks_uri');
  const listed = document.id_token_signing_alg_values_supported;
  // Without a list the published keys decide: jose matches a key to the token's algorithm by its type.
  const algorithms = Array.isArray(listed)
    ? ASYMMETRIC_ALGORITHMS.filter((algorithm) => listed.includes(algorithm))
    : ASYMMETRIC_ALGORITHMS;
  if (algorithms.length === 0) {
    throw new Error(
      `the provider signs with none of ${ASYMMETRIC_ALGORITHMS.join(', ')} (it lists ${JSON.stringify(listed)})`,
    );
  }
  return {
    issuer: text('issuer') ?? '',
    jwksUri,
    authorizationEndpoint: text('authorization_endpoint'),
    tokenEndpoint: text('token_endpoint'),
    algorithms,
  };
}

/**
 * The provider's discovery document and signing keys. Discovery and the key set are fetched at
 * start in the background, never holding the start up: a provider that is down only makes its
 * tokens wait. The key set is jose's remote set, which shares one fetch among concurrent
 * requests and refetches for an unknown kid after its cooldown; every network fetch also goes
 * through a gate, so failed fetches count too and a flood of unknown kids, provider up or down,
 * costs at most one fetch per refetch interval. Keys never expire on time (a failed refresh keeps
 * them), so cached keys keep working while the provider is unreachable.
 */
export function createProviderKeys(options: ProviderKeysOptions, onProblem: (message: string, error: unknown) => void) {
  const refetchIntervalMs = options.refetchIntervalMs ?? 30_000;
  const refreshIntervalMs = options.refreshIntervalMs ?? 600_000;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const issuer = new URL(options.issuer);

  let metadata: ProviderMetadata | undefined;
  let keySet: ReturnType<typeof createRemoteJWKSet> | undefined;
  let discovering: Promise<ProviderMetadata> | undefined;
  const hasKeys = () => keySet?.jwks() !== undefined;
  const discoveryGate = new Gate(refetchIntervalMs);
  const keysGate = new Gate(refetchIntervalMs);

  const gatedFetch = (url: string, init: RequestInit) => {
    keysGate.attempt();
    return fetch(url, init);
  };

  async function discover(): Promise<ProviderMetadata> {
    discoveryGate.attempt();
    const response = await discoveryRequest(issuer, {
      [allowInsecureRequests]: issuer.protocol === 'http:',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const found = metadataFrom(await processDiscoveryResponse(issuer, response));
    keySet = createRemoteJWKSet(new URL(found.jwksUri), {
      cooldownDuration: refetchIntervalMs,
      // Never stale on time: a refresh that fails keeps the keys (the background refresh renews them).
      cacheMaxAge: Number.POSITIVE_INFINITY,
      timeoutDuration: timeoutMs,
      [customFetch]: gatedFetch,
    });
    metadata = found;
    return found;
  }

  /** The discovered metadata: discovers now (one attempt shared by all callers) if need be. */
  async function current(): Promise<ProviderMetadata> {
    if (metadata !== undefined) return metadata;
    discovering ??= discover().finally(() => {
      discovering = undefined;
    });
    try {
      return await discovering;
    } catch (error) {
      throw new ProviderUnavailableError(discoveryGate.secondsToWait(), { cause: error });
    }
  }

  /** jose's key lookup for jwtVerify; with no keys at all yet, one fetch is tried, else ProviderUnavailableError. */
  async function getKey(header: JWSHeaderParameters, token: FlattenedJWSInput) {
    await current();
    const set = keySet!;
    if (!hasKeys()) {
      try {
        await set.reload();
      } catch (error) {
        throw new ProviderUnavailableError(keysGate.secondsToWait(), { cause: error });
      }
    }
    return set(header, token);
  }

  /** One background round: discovery and the keys when missing, otherwise a refresh of the keys. */
  async function refresh(): Promise<void> {
    try {
      await current();
      await keySet!.reload();
    } catch (error) {
      if (!(error instanceof TooSoonError)) onProblem('identity provider keys could not be fetched', error);
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    // Until keys arrive, try again as soon as the gate allows; then renew them now and then.
    timer = setTimeout(() => void refresh().finally(schedule), hasKeys() ? refreshIntervalMs : refetchIntervalMs);
    timer.unref();
  };

  let first: Promise<void> | undefined;

  return {
    current,
    getKey,
    /** Fetches discovery and keys now, in the background, and keeps them fresh until stop(). */
    start(): Promise<void> {
      first ??= refresh().finally(schedule);
      return first;
    },
    /** Settles when start's first fetch has (whatever its outcome); at once if start was not called. */
    async firstRound(): Promise<void> {
      await first;
    },
    stop(): void {
      stopped = true;
      clearTimeout(timer);
    },
    get metadata() {
      return metadata;
    },
  };
}

export type ProviderKeys = ReturnType<typeof createProviderKeys>;
