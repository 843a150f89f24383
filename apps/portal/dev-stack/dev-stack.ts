/**
 * `npm run dev:stack`: the whole thing on one machine, for trying it out. A throwaway PostgreSQL
 * (packages/test-postgres) with a database and a role for each app, a local OpenID Provider (the one
 * the browser journeys use), the Books API on PostgreSQL with token login for its demo users and the
 * provider's tokens (its /docs signs in there too), and the portal against the Kubernetes stand-in
 * with sign-in through the same provider. Ctrl-C (SIGINT) or SIGTERM stops every
 * process it started and removes the database's folder.
 *
 * Environment: PORT (the API, default 8000) and PORTAL_PORT (the portal, default 3000). Everything
 * else picks free ports and makes its secrets per run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ThrowawayCluster, withDatabase } from '@books/test-postgres';
import postgres from 'postgres';
import { startTestIdentityProvider, type TestIdentityProvider } from '../e2e/test-identity-provider.js';
import { freePort, hasProductionBuild, startPortalServer, type PortalServer } from '../kube-stand-in/portal-server.js';
import { startStandIn, type StandIn } from '../kube-stand-in/server.js';
import { DEMO_PORTAL_USERS } from './demo-users.js';
import { startSpanFile } from './span-file.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const API_SERVER = join(ROOT, 'apps/books-api/dist/server.js');
const API_DEMO_USERS = join(ROOT, 'apps/books-api/demo/users.demo.json');
const PORTAL_DIR = fileURLToPath(new URL('..', import.meta.url));
const NEXT_BIN = join(ROOT, 'node_modules/next/dist/bin/next');
const HOST = '127.0.0.1';
/** The Books API as the local provider's resource server: its tokens' `aud`, and the client of its /docs. */
const API_AUDIENCE = 'api://books-dev';
const API_DOCS_CLIENT_ID = 'books-docs-dev';
/** How long each part may take to answer; the first `next dev` compile on two cores is the slowest. */
const START_TIMEOUT_MS = 240_000;

function port(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 65535) {
    console.error(`${name} must be a port number from 1 to 65535, got "${raw}"`);
    process.exit(2);
  }
  return value;
}

const say = (line: string): void => console.error(`[dev-stack] ${line}`);
const secret = (): string => randomBytes(32).toString('base64url');

/** What has been started, stopped in reverse order. */
const cleanups: (() => Promise<void>)[] = [];
let stopping: Promise<void> | undefined;

async function stopAll(): Promise<void> {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      say(`while stopping: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function stopAndExit(code: number): void {
  stopping ??= stopAll().finally(() => process.exit(code));
}

process.on('SIGINT', () => stopAndExit(0));
process.on('SIGTERM', () => stopAndExit(0));

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A child whose unexpected exit takes the whole stack down, so nothing is left half running. */
function watch(child: ChildProcess, name: string): void {
  child.once('exit', (code, signal) => {
    // Ctrl-C signals the whole process group: let this process's own SIGINT handler go first.
    setTimeout(() => {
      if (stopping) return;
      say(`${name} exited (${signal ?? `code ${code}`}): stopping everything`);
      stopAndExit(1);
    }, 500);
  });
}

async function waitForAnswer(url: string, what: string, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(60_000) });
      await response.arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${what} did not answer on ${url} in time`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** A login role (not a superuser) owning a database of the same name, as the Kubernetes init Job makes. */
async function createAppDatabase(adminUrl: string, name: string): Promise<string> {
  const password = secret();
  const sql = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  try {
    await sql.unsafe(`CREATE ROLE ${name} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '${password}'`);
    await sql.unsafe(`CREATE DATABASE ${name} OWNER ${name}`);
  } finally {
    await sql.end();
  }
  const url = new URL(withDatabase(adminUrl, name));
  url.username = name;
  url.password = password;
  return url.toString();
}

async function startApi(
  apiPort: number,
  databaseUrl: string,
  issuer: string,
  tracing: Record<string, string>,
): Promise<ChildProcess> {
  if (!existsSync(API_SERVER)) throw new Error('No API build: run npm run build (npm install does it)');
  const child = spawn(process.execPath, [API_SERVER], {
    env: {
      ...process.env,
      HOST,
      PORT: String(apiPort),
      DATABASE_URL: databaseUrl,
      USERS_FILE: API_DEMO_USERS,
      JWT_SECRET_KEY: secret(),
      AUTH_OIDC_ISSUER: issuer,
      AUTH_OIDC_AUDIENCE: API_AUDIENCE,
      AUTH_OIDC_DOCS_CLIENT_ID: API_DOCS_CLIENT_ID,
      AUTH_OIDC_DOCS_SCOPES: 'openid Books.Read Books.Write',
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
      ...tracing,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  cleanups.push(() => stopChild(child));
  watch(child, 'the Books API');
  await waitForAnswer(`http://${HOST}:${apiPort}/api/ps`, 'the Books API', child);
  return child;
}

/** `next dev` when there is no production build: slower pages, but no build to wait for. */
async function startPortalDev(portalPort: number, env: Record<string, string>): Promise<string> {
  say('no portal production build: starting next dev. Each page compiles on its first load, 20-50 s on two');
  say('cores; run npm run portal:build once for pages that answer at once.');
  const child = spawn(process.execPath, [NEXT_BIN, 'dev', '--port', String(portalPort), '--hostname', HOST], {
    cwd: PORTAL_DIR,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  cleanups.push(() => stopChild(child));
  watch(child, 'the portal (next dev)');
  const url = `http://${HOST}:${portalPort}`;
  await waitForAnswer(`${url}/catalog`, 'the portal', child);
  return url;
}

async function main(): Promise<void> {
  const apiPort = port('PORT', 8000);
  const portalPort = port('PORTAL_PORT', 3000);
  const portalUrl = `http://${HOST}:${portalPort}`;

  say('starting a throwaway PostgreSQL');
  const cluster = await ThrowawayCluster.create();
  cleanups.push(() => cluster.destroy());
  const booksUrl = await createAppDatabase(cluster.url, 'books');
  const portalDatabaseUrl = await createAppDatabase(cluster.url, 'portal');

  // Both apps' spans: to the collector of whoever runs the stack (OTEL_EXPORTER_OTLP_ENDPOINT), or
  // else to a file of JSON lines written by a receiver of the stack's own.
  const spansDirectory = mkdtempSync(join(tmpdir(), 'dev-stack-spans-'));
  cleanups.push(async () => rmSync(spansDirectory, { recursive: true, force: true }));
  const spansPath = join(spansDirectory, 'spans.jsonl');
  const ownCollector = process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] ?? process.env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
  let tracing: Record<string, string> = {};
  if (ownCollector === undefined) {
    say('starting the span collector');
    const receiver = await startSpanFile(spansPath, await freePort());
    cleanups.push(() => receiver.close());
    tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '1000' };
  }
  const spansLine =
    ownCollector === undefined
      ? `${spansPath}  (one JSON line per span: tail -f ${spansPath} | jq -c '{service,name,traceId,durationMs}')`
      : `to ${ownCollector} (OTEL_EXPORTER_OTLP_ENDPOINT)`;

  say('starting the local OpenID Provider');
  const client = {
    clientId: 'platform-portal-dev',
    clientSecret: secret(),
    redirectUri: `${portalUrl}/api/auth/callback/oidc`,
    postLogoutRedirectUri: `${portalUrl}/signed-out`,
  };
  const provider: TestIdentityProvider = await startTestIdentityProvider({
    port: await freePort(),
    users: DEMO_PORTAL_USERS,
    client,
    api: {
      audience: API_AUDIENCE,
      docsClientId: API_DOCS_CLIENT_ID,
      docsRedirectUri: `http://${HOST}:${apiPort}/docs/static/oauth2-redirect.html`,
    },
  });
  cleanups.push(() => provider.close());

  say("starting the Books API on PostgreSQL, accepting the provider's tokens");
  await startApi(apiPort, booksUrl, provider.issuer, tracing);

  say('starting the Kubernetes stand-in');
  const standIn: StandIn = await startStandIn({ port: await freePort() });
  cleanups.push(() => standIn.close());
  const directory = mkdtempSync(join(tmpdir(), 'dev-stack-'));
  cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
  const kubeconfigPath = join(directory, 'kubeconfig');
  standIn.writeKubeconfig(kubeconfigPath);

  const portalEnv = {
    PORTAL_MOCK_PLATFORM: 'false',
    KUBECONFIG: kubeconfigPath,
    PORTAL_AUTH: 'oidc',
    PORTAL_OIDC_ISSUER: provider.issuer,
    PORTAL_OIDC_CLIENT_ID: client.clientId,
    PORTAL_OIDC_CLIENT_SECRET: client.clientSecret,
    PORTAL_OIDC_SCOPES: 'groups',
    PORTAL_PUBLIC_URL: portalUrl,
    PORTAL_SESSION_SECRET: secret(),
    PORTAL_DATABASE_URL: portalDatabaseUrl,
    PORTAL_ADMIN_GROUPS: 'platform-admins',
    PORTAL_REQUESTER_GROUPS: 'developers',
    ...tracing,
  };
  say(hasProductionBuild() ? 'starting the portal (production build)' : 'starting the portal');
  if (hasProductionBuild()) {
    const portal: PortalServer = await startPortalServer({
      kubeconfigPath,
      port: portalPort,
      env: portalEnv,
      startTimeoutMs: START_TIMEOUT_MS,
    });
    cleanups.push(() => portal.stop());
  } else {
    await startPortalDev(portalPort, portalEnv);
  }

  const users = DEMO_PORTAL_USERS.map((user) => `${user.login} / ${user.password} (${user.role})`).join(
    '\n                           ',
  );
  console.log(`
Books Service dev stack: everything below is thrown away on Ctrl-C.
  Books API      http://${HOST}:${apiPort}  (docs: /docs), on PostgreSQL database "books"
                 token login: demo-reader / demo-reader-password, demo-writer / demo-writer-password
                 curl -s -X POST http://${HOST}:${apiPort}/token -d 'username=demo-writer&password=demo-writer-password'
                 or the provider's tokens: /docs, Authorize, OAuth2AuthorizationCodeBearer, as a portal user below
                 (admin and requester: Books.Read and Books.Write; viewer: Books.Read)
  Portal         ${portalUrl}  (cluster: the Kubernetes stand-in; sessions in database "portal")
                 sign in as ${users}
  Sign-in        ${provider.issuer}  (local OpenID Provider, for the portal and the API)
  Kubernetes     ${standIn.url}  KUBECONFIG=${kubeconfigPath} kubectl get accounts
  PostgreSQL     ${cluster.url}  (data in ${cluster.folder})
  Traces         ${spansLine}
Every password above is a public demo password: local use only.
Press Ctrl+C to stop everything.
`);
}

main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  stopAndExit(1);
});
