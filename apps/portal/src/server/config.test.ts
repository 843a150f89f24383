import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

describe('portal configuration', () => {
  it('uses the mock platform in development mode and the cluster otherwise', () => {
    expect(parseConfig({ NODE_ENV: 'development' }).mockPlatform).toBe(true);
    expect(parseConfig({ NODE_ENV: 'production' }).mockPlatform).toBe(false);
    expect(parseConfig({ NODE_ENV: 'production', PORTAL_MOCK_PLATFORM: 'true' }).mockPlatform).toBe(true);
    expect(parseConfig({ NODE_ENV: 'development', PORTAL_MOCK_PLATFORM: 'false' }).mockPlatform).toBe(false);
  });

  it('allows every Azure public region unless PORTAL_ALLOWED_LOCATIONS narrows them', () => {
    expect(parseConfig({}).allowedLocations).toContain('westus3');
    expect(parseConfig({}).allowedLocations.length).toBeGreaterThan(50);
    expect(parseConfig({ PORTAL_ALLOWED_LOCATIONS: ' WestUS3, westeurope,westus3' }).allowedLocations).toEqual([
      'westus3',
      'westeurope',
    ]);
  });

  it.each(['true', '1', 'yes', 'on', 'YES', ' On '])('turns development mode on with %j', (word) => {
    expect(parseConfig({ NODE_ENV: 'production', PORTAL_MOCK_PLATFORM: word }).mockPlatform).toBe(true);
  });

  it.each(['false', '0', 'no', 'off', 'Off'])('turns development mode off with %j', (word) => {
    expect(parseConfig({ NODE_ENV: 'development', PORTAL_MOCK_PLATFORM: word }).mockPlatform).toBe(false);
  });

  it('defaults the port to 3000', () => {
    expect(parseConfig({}).port).toBe(3000);
    expect(parseConfig({ PORTAL_PORT: '3105' }).port).toBe(3105);
  });

  it('logs at info unless PORTAL_LOG_LEVEL says otherwise', () => {
    expect(parseConfig({}).logLevel).toBe('info');
    expect(parseConfig({ PORTAL_LOG_LEVEL: 'DEBUG' }).logLevel).toBe('debug');
  });

  it.each([
    [{ PORTAL_MOCK_PLATFORM: 'maybe' }, 'PORTAL_MOCK_PLATFORM'],
    [{ PORTAL_PORT: 'eighty' }, 'PORTAL_PORT'],
    [{ PORTAL_PORT: '70000' }, 'PORTAL_PORT'],
    [{ PORTAL_LOG_LEVEL: 'loud' }, 'PORTAL_LOG_LEVEL'],
    [{ PORTAL_ALLOWED_LOCATIONS: 'westeurope,mars' }, 'PORTAL_ALLOWED_LOCATIONS'],
    [{ PORTAL_ALLOWED_LOCATIONS: ' , ' }, 'PORTAL_ALLOWED_LOCATIONS'],
  ])('refuses %j, naming the variable', (env, name) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(name);
  });
});
