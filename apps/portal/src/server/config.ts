import 'server-only';
import { AZURE_PUBLIC_REGIONS, isAzureRegion, type Location } from '@/lib/platform/storage-rules';
import { parseSwitch, SWITCH_WORDS_HINT } from '@books/shared-rules';
import { parseAuthConfig, parseDatabaseUrl, type AuthConfig } from './auth/auth-config';

/**
 * The portal's environment, parsed once. A bad value throws ConfigError naming the variable;
 * src/instrumentation.ts calls loadConfig() at server start so the process stops right away.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface PortalConfig {
  /** Development mode: answer from the mock backend, never contact a cluster. */
  mockPlatform: boolean;
  port: number;
  logLevel: LogLevel;
  /** Azure regions a storage account may be placed in: every public region unless narrowed. */
  allowedLocations: readonly Location[];
  /** Who is signed in and how (PORTAL_AUTH and the variables of its mode). */
  auth: AuthConfig;
  /**
   * PostgreSQL for the intent ledger (and oidc sessions), shared by replicas and kept across
   * restarts; unset keeps intent in this process's memory.
   */
  databaseUrl?: string;
}

type Env = Record<string, string | undefined>;

/** A switch whose "unset" differs from "off", so a word outside both lists is refused rather than guessed. */
function parseBoolean(env: Env, name: string): boolean | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  // The switch words both apps accept (the Books API's contract), from the shared package.
  const value = parseSwitch(raw);
  if (value === undefined) throw new ConfigError(`${name} must be ${SWITCH_WORDS_HINT}, got "${raw}"`);
  return value;
}

function parsePort(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new ConfigError(`${name} must be a port number from 1 to 65535, got "${raw}"`);
  }
  return port;
}

function parseLogLevel(env: Env, name: string, fallback: LogLevel): LogLevel {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const level = LOG_LEVELS.find((candidate) => candidate === raw.toLowerCase());
  if (!level) throw new ConfigError(`${name} must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return level;
}

function parseLocations(env: Env, name: string): readonly Location[] {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return AZURE_PUBLIC_REGIONS;
  const names = raw
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  const unknown = names.filter((entry) => !isAzureRegion(entry));
  if (names.length === 0 || unknown.length > 0) {
    throw new ConfigError(
      `${name} must be a comma-separated list of Azure public region names (e.g. westeurope,westus3), got "${raw}"`,
    );
  }
  return [...new Set(names)].filter(isAzureRegion);
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

export function parseConfig(env: Env): PortalConfig {
  const explicitMock = parseBoolean(env, 'PORTAL_MOCK_PLATFORM');
  // `next dev` runs with NODE_ENV=development; an explicit PORTAL_MOCK_PLATFORM=false still wins.
  const mockPlatform = explicitMock ?? env.NODE_ENV === 'development';
  return {
    mockPlatform,
    port: parsePort(env, 'PORTAL_PORT', 3000),
    logLevel: parseLogLevel(env, 'PORTAL_LOG_LEVEL', 'info'),
    allowedLocations: parseLocations(env, 'PORTAL_ALLOWED_LOCATIONS'),
    auth: parseAuthConfig(env, mockPlatform, (message) => new ConfigError(message)),
    ...optional(
      'databaseUrl',
      parseDatabaseUrl(env, (message) => new ConfigError(message)),
    ),
  };
}

let cached: PortalConfig | undefined;

export function loadConfig(): PortalConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
