import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

const PROXY = { PORTAL_AUTH: 'proxy', PORTAL_PROXY_SECRET: 'p'.repeat(32) };

describe('portal configuration', () => {
  it('traces only with an OTLP endpoint, and refuses what it cannot honour naming the variable', () => {
    expect(parseConfig({ PORTAL_AUTH: 'none' }).tracing).toEqual({ enabled: false });
    expect(parseConfig({ PORTAL_AUTH: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).tracing).toEqual({
      enabled: true,
      protocol: 'http/protobuf',
      tracesUrl: 'http://127.0.0.1:4318/v1/traces',
    });
    expect(() => parseConfig({ PORTAL_AUTH: 'none', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL/,
    );
  });

  it('PORTAL_TRACE_URL_TEMPLATE must hold {traceId} and make an http(s) URL', () => {
    const template = 'https://grafana.example.com/explore?trace={traceId}';
    expect(parseConfig({ PORTAL_AUTH: 'none', PORTAL_TRACE_URL_TEMPLATE: template }).traceUrlTemplate).toBe(template);
    expect(parseConfig({ PORTAL_AUTH: 'none' }).traceUrlTemplate).toBeUndefined();
    expect(() =>
      parseConfig({ PORTAL_AUTH: 'none', PORTAL_TRACE_URL_TEMPLATE: 'https://jaeger.example/trace/' }),
    ).toThrow(/PORTAL_TRACE_URL_TEMPLATE must contain \{traceId\}/);
    expect(() =>
      parseConfig({ PORTAL_AUTH: 'none', PORTAL_TRACE_URL_TEMPLATE: 'javascript:alert({traceId})' }),
    ).toThrow(/PORTAL_TRACE_URL_TEMPLATE must be an http\(s\) URL/);
  });

  it('uses the mock platform in development mode and the cluster otherwise', () => {
    expect(parseConfig({ NODE_ENV: 'development' }).mockPlatform).toBe(true);
    expect(parseConfig({ NODE_ENV: 'production', PORTAL_AUTH: 'none' }).mockPlatform).toBe(false);
    expect(parseConfig({ NODE_ENV: 'production', PORTAL_MOCK_PLATFORM: 'true' }).mockPlatform).toBe(true);
    expect(
      parseConfig({ NODE_ENV: 'development', PORTAL_MOCK_PLATFORM: 'false', PORTAL_AUTH: 'none' }).mockPlatform,
    ).toBe(false);
  });

  it('allows every Azure public region unless PORTAL_ALLOWED_LOCATIONS narrows them', () => {
    expect(parseConfig({ PORTAL_AUTH: 'none' }).allowedLocations).toContain('westus3');
    expect(parseConfig({ PORTAL_AUTH: 'none' }).allowedLocations.length).toBeGreaterThan(50);
    expect(
      parseConfig({ PORTAL_AUTH: 'none', PORTAL_ALLOWED_LOCATIONS: ' WestUS3, westeurope,westus3' }).allowedLocations,
    ).toEqual(['westus3', 'westeurope']);
  });

  it.each(['true', '1', 'yes', 'on', 'YES', ' On '])('turns development mode on with %j', (word) => {
    expect(parseConfig({ NODE_ENV: 'production', PORTAL_MOCK_PLATFORM: word }).mockPlatform).toBe(true);
  });

  it.each(['false', '0', 'no', 'off', 'Off'])('turns development mode off with %j', (word) => {
    expect(parseConfig({ NODE_ENV: 'development', PORTAL_MOCK_PLATFORM: word, PORTAL_AUTH: 'none' }).mockPlatform).toBe(
      false,
    );
  });

  it('defaults the port to 3000', () => {
    expect(parseConfig({ PORTAL_AUTH: 'none' }).port).toBe(3000);
    expect(parseConfig({ PORTAL_AUTH: 'none', PORTAL_PORT: '3105' }).port).toBe(3105);
  });

  it('logs at info unless PORTAL_LOG_LEVEL says otherwise', () => {
    expect(parseConfig({ PORTAL_AUTH: 'none' }).logLevel).toBe('info');
    expect(parseConfig({ PORTAL_AUTH: 'none', PORTAL_LOG_LEVEL: 'DEBUG' }).logLevel).toBe('debug');
  });

  it('reads PORTAL_PUBLIC_URL in every mode, and requires an http(s) origin', () => {
    expect(parseConfig({ PORTAL_AUTH: 'none' }).publicUrl).toBeUndefined();
    expect(parseConfig({ ...PROXY, PORTAL_PUBLIC_URL: 'https://portal.example.com' }).publicUrl?.href).toBe(
      'https://portal.example.com/',
    );
    expect(() => parseConfig({ ...PROXY, PORTAL_PUBLIC_URL: 'https://portal.example.com/x' })).toThrow(
      'PORTAL_PUBLIC_URL',
    );
  });

  it('limits each requester to 25 live accounts and 10 creates an hour unless told otherwise', () => {
    expect(parseConfig({ PORTAL_AUTH: 'none' }).createLimits).toEqual({
      maxAccountsPerUser: 25,
      maxCreatesPerHour: 10,
    });
    expect(
      parseConfig({ PORTAL_AUTH: 'none', PORTAL_MAX_ACCOUNTS_PER_USER: ' 3 ', PORTAL_MAX_CREATES_PER_HOUR: '100' })
        .createLimits,
    ).toEqual({ maxAccountsPerUser: 3, maxCreatesPerHour: 100 });
  });

  it('allows each user 5 open event streams unless told otherwise, and refuses a bad count naming the variable', () => {
    expect(parseConfig({ PORTAL_AUTH: 'none' }).maxStreamsPerUser).toBe(5);
    expect(parseConfig({ PORTAL_AUTH: 'none', PORTAL_MAX_STREAMS_PER_USER: '2' }).maxStreamsPerUser).toBe(2);
    for (const bad of ['0', '1.5', 'many']) {
      expect(() => parseConfig({ PORTAL_AUTH: 'none', PORTAL_MAX_STREAMS_PER_USER: bad })).toThrow(
        'PORTAL_MAX_STREAMS_PER_USER',
      );
    }
  });

  it.each([
    [{ PORTAL_AUTH: 'none', PORTAL_MAX_ACCOUNTS_PER_USER: '0' }, 'PORTAL_MAX_ACCOUNTS_PER_USER'],
    [{ PORTAL_AUTH: 'none', PORTAL_MAX_ACCOUNTS_PER_USER: '2.5' }, 'PORTAL_MAX_ACCOUNTS_PER_USER'],
    [{ PORTAL_AUTH: 'none', PORTAL_MAX_ACCOUNTS_PER_USER: 'lots' }, 'PORTAL_MAX_ACCOUNTS_PER_USER'],
    [{ PORTAL_AUTH: 'none', PORTAL_MAX_CREATES_PER_HOUR: '-1' }, 'PORTAL_MAX_CREATES_PER_HOUR'],
    [{ PORTAL_AUTH: 'none', PORTAL_MAX_CREATES_PER_HOUR: '1e3' }, 'PORTAL_MAX_CREATES_PER_HOUR'],
    [{ PORTAL_AUTH: 'none', PORTAL_MAX_CREATES_PER_HOUR: '99999999999999999999' }, 'PORTAL_MAX_CREATES_PER_HOUR'],
  ])('refuses the create limit %j, naming the variable', (env, name) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(name);
  });

  it.each([
    [{ PORTAL_MOCK_PLATFORM: 'maybe' }, 'PORTAL_MOCK_PLATFORM'],
    [{ PORTAL_AUTH: 'none', PORTAL_PORT: 'eighty' }, 'PORTAL_PORT'],
    [{ PORTAL_AUTH: 'none', PORTAL_PORT: '70000' }, 'PORTAL_PORT'],
    [{ PORTAL_AUTH: 'none', PORTAL_LOG_LEVEL: 'loud' }, 'PORTAL_LOG_LEVEL'],
    [{ PORTAL_AUTH: 'none', PORTAL_ALLOWED_LOCATIONS: 'westeurope,mars' }, 'PORTAL_ALLOWED_LOCATIONS'],
    [{ PORTAL_AUTH: 'none', PORTAL_ALLOWED_LOCATIONS: ' , ' }, 'PORTAL_ALLOWED_LOCATIONS'],
  ])('refuses %j, naming the variable', (env, name) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(name);
  });
});

describe('portal sign-in configuration', () => {
  const oidc = {
    PORTAL_AUTH: 'oidc',
    PORTAL_OIDC_ISSUER: 'https://login.example.com/realms/platform',
    PORTAL_OIDC_CLIENT_ID: 'portal',
    PORTAL_OIDC_CLIENT_SECRET: 'client-secret',
    PORTAL_PUBLIC_URL: 'https://portal.example.com',
    PORTAL_SESSION_SECRET: 'x'.repeat(32),
  };

  it('refuses to start outside development mode when PORTAL_AUTH is unset', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(/PORTAL_AUTH must be set/);
  });

  it('acts as the developer in development mode when PORTAL_AUTH is unset', () => {
    expect(parseConfig({ PORTAL_MOCK_PLATFORM: 'true' }).auth).toEqual({ mode: 'development' });
    expect(parseConfig({ PORTAL_MOCK_PLATFORM: 'true', PORTAL_AUTH: 'none' }).auth).toEqual({ mode: 'none' });
  });

  it('reads the OpenID Connect settings, roles and scopes', () => {
    const config = parseConfig({
      ...oidc,
      PORTAL_OIDC_SCOPES: 'groups offline_access',
      PORTAL_ADMIN_GROUPS: 'admins, platform',
      PORTAL_ROLES_CLAIM: 'roles',
    });
    expect(config.auth).toMatchObject({
      mode: 'oidc',
      roles: { claim: 'roles', adminGroups: ['admins', 'platform'], requesterGroups: [] },
      oidc: { clientId: 'portal', scopes: ['openid', 'profile', 'email', 'groups', 'offline_access'] },
      session: { secure: true },
    });
  });

  it('accepts plain http for the issuer on a loopback address only', () => {
    expect(parseConfig({ ...oidc, PORTAL_OIDC_ISSUER: 'http://127.0.0.1:4000' }).auth.mode).toBe('oidc');
    expect(parseConfig({ ...oidc, PORTAL_OIDC_ISSUER: 'http://localhost:4000/' }).auth.mode).toBe('oidc');
    expect(() => parseConfig({ ...oidc, PORTAL_OIDC_ISSUER: 'http://login.example.com' })).toThrow(/must be an https/);
  });

  it.each([
    [{ PORTAL_AUTH: 'ldap' }, 'PORTAL_AUTH'],
    [{ PORTAL_SESSION_SECRET: 'x'.repeat(31) }, 'PORTAL_SESSION_SECRET must be at least 32 bytes'],
    [{ PORTAL_SESSION_SECRET: '' }, 'PORTAL_SESSION_SECRET must be set'],
    [{ PORTAL_OIDC_ISSUER: '' }, 'PORTAL_OIDC_ISSUER'],
    [{ PORTAL_OIDC_CLIENT_ID: '' }, 'PORTAL_OIDC_CLIENT_ID'],
    [{ PORTAL_OIDC_CLIENT_SECRET: '' }, 'PORTAL_OIDC_CLIENT_SECRET'],
    [{ PORTAL_PUBLIC_URL: 'https://portal.example.com/portal' }, 'PORTAL_PUBLIC_URL'],
    [{ PORTAL_DATABASE_URL: 'mysql://db/portal' }, 'PORTAL_DATABASE_URL'],
  ])('refuses an oidc configuration with %j, naming the variable', (change, message) => {
    expect(() => parseConfig({ ...oidc, ...change })).toThrow(message);
  });

  it('keeps the intent ledger in PORTAL_DATABASE_URL in every sign-in mode, and in memory without it', () => {
    expect(parseConfig({ PORTAL_AUTH: 'none' }).databaseUrl).toBeUndefined();
    expect(parseConfig({ ...PROXY, PORTAL_DATABASE_URL: ' postgres://portal@db:5432/portal ' }).databaseUrl).toBe(
      'postgres://portal@db:5432/portal',
    );
    expect(() => parseConfig({ PORTAL_AUTH: 'none', PORTAL_DATABASE_URL: 'mysql://db/portal' })).toThrow(
      'PORTAL_DATABASE_URL',
    );
  });

  it('observes Azure only with PORTAL_AZURE_SUBSCRIPTION_ID, every 60 s unless told otherwise', () => {
    expect(parseConfig({ PORTAL_AUTH: 'none' }).azure).toBeUndefined();
    const subscription = '0000AAAA-0000-4000-8000-000000000000';
    expect(parseConfig({ PORTAL_AUTH: 'none', PORTAL_AZURE_SUBSCRIPTION_ID: subscription }).azure).toEqual({
      subscriptionId: subscription.toLowerCase(),
      observationTtlSeconds: 60,
    });
    expect(
      parseConfig({
        PORTAL_AUTH: 'none',
        PORTAL_AZURE_SUBSCRIPTION_ID: subscription,
        PORTAL_AZURE_ARM_ENDPOINT: 'https://127.0.0.1:6444/',
        PORTAL_OBSERVATION_TTL_SECONDS: '5',
      }).azure,
    ).toEqual({
      subscriptionId: subscription.toLowerCase(),
      armEndpoint: 'https://127.0.0.1:6444',
      observationTtlSeconds: 5,
    });
  });

  it.each([
    [{ PORTAL_AZURE_SUBSCRIPTION_ID: 'my-subscription' }, 'PORTAL_AZURE_SUBSCRIPTION_ID'],
    [{ PORTAL_AZURE_ARM_ENDPOINT: 'https://127.0.0.1:6444' }, 'PORTAL_AZURE_SUBSCRIPTION_ID is not'],
    [
      {
        PORTAL_AZURE_SUBSCRIPTION_ID: '00000000-0000-4000-8000-000000000000',
        PORTAL_AZURE_ARM_ENDPOINT: 'http://arm.local',
      },
      'PORTAL_AZURE_ARM_ENDPOINT',
    ],
    [{ PORTAL_OBSERVATION_TTL_SECONDS: '0' }, 'PORTAL_OBSERVATION_TTL_SECONDS'],
    [{ PORTAL_OBSERVATION_TTL_SECONDS: '1.5' }, 'PORTAL_OBSERVATION_TTL_SECONDS'],
  ])('refuses a cloud observation setting %j, naming the variable', (change, message) => {
    expect(() => parseConfig({ PORTAL_AUTH: 'none', ...change })).toThrow(message);
  });

  describe('never quotes a credential when it refuses a value', () => {
    const PASSWORD = 'pa55-W0rd-n0t-for-logs';
    const USER = 'portal-db-user';
    const refusal = (env: Record<string, string>): ConfigError => {
      try {
        parseConfig(env);
      } catch (error) {
        if (error instanceof ConfigError) return error;
        throw error;
      }
      throw new Error(`accepted ${JSON.stringify(env)}`);
    };

    it.each([
      // Unparseable (a port that is no number): not quoted at all.
      ['PORTAL_DATABASE_URL', `postgres://${USER}:${PASSWORD}@db.example:port/portal`, undefined],
      // No scheme: new URL() reads the user as the scheme and the password as the path.
      ['PORTAL_DATABASE_URL', `${USER}:${PASSWORD}@db.example/portal`, undefined],
      ['PORTAL_DATABASE_URL', `mysql://${USER}:${PASSWORD}@db.example/portal`, 'mysql://db.example/portal'],
      ['PORTAL_AZURE_ARM_ENDPOINT', `https://${USER}:${PASSWORD}@arm.example`, 'https://arm.example'],
      ['PORTAL_AZURE_ARM_ENDPOINT', `https://${USER}:${PASSWORD}@arm.example:x`, undefined],
      ['PORTAL_AZURE_ARM_ENDPOINT', `http://${USER}:${PASSWORD}@arm.example`, 'http://arm.example'],
      [
        'PORTAL_PUBLIC_URL',
        `https://${USER}:${PASSWORD}@portal.example/x?token=${PASSWORD}`,
        'https://portal.example/x',
      ],
      ['PORTAL_OIDC_ISSUER', `http://${USER}:${PASSWORD}@login.example/realm`, 'http://login.example/realm'],
    ])('%s=%s', (name, value, shown) => {
      const base: Record<string, string> =
        name === 'PORTAL_OIDC_ISSUER'
          ? oidc
          : name === 'PORTAL_AZURE_ARM_ENDPOINT'
            ? { PORTAL_AUTH: 'none', PORTAL_AZURE_SUBSCRIPTION_ID: '00000000-0000-4000-8000-000000000000' }
            : PROXY;
      const { message } = refusal({ ...base, [name]: value });
      expect(message).toContain(name);
      expect(message).not.toContain(PASSWORD);
      expect(message).not.toContain(USER);
      if (shown === undefined) expect(message).toMatch(/not shown/);
      else expect(message).toContain(`"${shown}"`);
    });

    it('never quotes the session secret', () => {
      const { message } = refusal({ PORTAL_AUTH: 'none', PORTAL_SESSION_SECRET: PASSWORD });
      expect(message).toContain('PORTAL_SESSION_SECRET');
      expect(message).not.toContain(PASSWORD);
    });
  });

  it('refuses proxy mode without PORTAL_PROXY_SECRET, naming the variable', () => {
    expect(() => parseConfig({ PORTAL_AUTH: 'proxy' })).toThrow(ConfigError);
    expect(() => parseConfig({ PORTAL_AUTH: 'proxy' })).toThrow(
      /^PORTAL_PROXY_SECRET must be set with PORTAL_AUTH=proxy/,
    );
    expect(() => parseConfig({ PORTAL_AUTH: 'proxy', PORTAL_PROXY_SECRET: '  ' })).toThrow(/PORTAL_PROXY_SECRET/);
  });

  it('refuses a proxy secret shorter than 32 characters in every mode, without quoting it', () => {
    for (const mode of ['proxy', 'none']) {
      const short = 'short-proxy-secret-31-character';
      expect(short).toHaveLength(31);
      expect(() => parseConfig({ PORTAL_AUTH: mode, PORTAL_PROXY_SECRET: short })).toThrow(
        /^PORTAL_PROXY_SECRET must be at least 32 characters, got 31/,
      );
      expect(() => parseConfig({ PORTAL_AUTH: mode, PORTAL_PROXY_SECRET: short })).not.toThrow(short);
    }
    // Characters, not bytes: 32 two-byte characters are enough, 31 are not.
    expect(parseConfig({ PORTAL_AUTH: 'proxy', PORTAL_PROXY_SECRET: 'é'.repeat(32) }).auth).toMatchObject({
      mode: 'proxy',
      proxySecret: 'é'.repeat(32),
    });
    expect(() => parseConfig({ PORTAL_AUTH: 'proxy', PORTAL_PROXY_SECRET: 'é'.repeat(31) })).toThrow(/got 31/);
  });

  it('refuses a short session secret in every mode', () => {
    expect(() => parseConfig({ PORTAL_AUTH: 'none', PORTAL_SESSION_SECRET: 'short' })).toThrow(/at least 32 bytes/);
  });

  it('keeps Accounts cluster-scoped unless PORTAL_ACCOUNT_SCOPE=namespaced, with its template and provider config', () => {
    const none = { PORTAL_AUTH: 'none' };
    expect(parseConfig(none).accountScope).toEqual({ kind: 'cluster' });
    expect(parseConfig({ ...none, PORTAL_ACCOUNT_SCOPE: 'Namespaced' }).accountScope).toEqual({
      kind: 'namespaced',
      namespaceTemplate: '{application}',
      providerConfig: 'default',
    });
    expect(
      parseConfig({
        ...none,
        PORTAL_ACCOUNT_SCOPE: 'namespaced',
        PORTAL_NAMESPACE_TEMPLATE: 'team-{application}-{environment}',
        PORTAL_PROVIDER_CONFIG: 'azure-prod',
      }).accountScope,
    ).toEqual({
      kind: 'namespaced',
      namespaceTemplate: 'team-{application}-{environment}',
      providerConfig: 'azure-prod',
    });
  });

  it('refuses an account scope, namespace template or provider config it cannot honour, naming the variable', () => {
    const namespaced = { PORTAL_AUTH: 'none', PORTAL_ACCOUNT_SCOPE: 'namespaced' };
    expect(() => parseConfig({ PORTAL_AUTH: 'none', PORTAL_ACCOUNT_SCOPE: 'v2' })).toThrow(
      /PORTAL_ACCOUNT_SCOPE must be cluster or namespaced, got "v2"/,
    );
    for (const template of ['Team_{application}', '{app}', '{application}-', 'x'.repeat(64)]) {
      expect(() => parseConfig({ ...namespaced, PORTAL_NAMESPACE_TEMPLATE: template })).toThrow(
        /^PORTAL_NAMESPACE_TEMPLATE must be a namespace name/,
      );
    }
    expect(() => parseConfig({ ...namespaced, PORTAL_PROVIDER_CONFIG: 'Not A Name' })).toThrow(
      /^PORTAL_PROVIDER_CONFIG must be the name of a ClusterProviderConfig/,
    );
    // Set for the other scope: said, rather than silently ignored.
    expect(() => parseConfig({ PORTAL_AUTH: 'none', PORTAL_NAMESPACE_TEMPLATE: '{application}' })).toThrow(
      /PORTAL_NAMESPACE_TEMPLATE applies only with PORTAL_ACCOUNT_SCOPE=namespaced/,
    );
    expect(() => parseConfig({ PORTAL_AUTH: 'none', PORTAL_PROVIDER_CONFIG: 'default' })).toThrow(
      /PORTAL_PROVIDER_CONFIG applies only with PORTAL_ACCOUNT_SCOPE=namespaced/,
    );
  });
});
