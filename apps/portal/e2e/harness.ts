/**
 * Reusable pieces for the portal's browser journeys: build if needed, start the production
 * server on a free port, launch Debian's Chromium with a fresh profile, fail on console errors,
 * and keep screenshots. Journeys on a Kubernetes stand-in start their world with
 * startClusterJourney() (startSignInJourney() with a real OpenID Provider), call the platform API
 * with callPlatform() and wait with until().
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@books/test-browser';
import type { BrowserContext, Page } from 'playwright-core';
import type { StandIn } from '../kube-stand-in/index';
import { freePort, startPortalServer, type PortalServer } from '../kube-stand-in/portal-server';
import { eventually, type TestCluster } from '../test/kubernetes-harness';
import { startTestIdentityProvider, type TestIdentityProvider, type TestUser } from './test-identity-provider';

export const PORTAL_DIR = fileURLToPath(new URL('..', import.meta.url));
export const ARTIFACTS_DIR = join(PORTAL_DIR, 'e2e', 'artifacts');
const NEXT_BIN = fileURLToPath(new URL('../../../node_modules/next/dist/bin/next', import.meta.url));

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stat.mtimeMs);
}

/**
 * True when .next holds a production build newer than every source file, the built workspace
 * package the server bundles (@books/shared-rules) included: a change there is otherwise tested
 * against the copy bundled before it.
 */
export function productionBuildIsCurrent(): boolean {
  const buildId = join(PORTAL_DIR, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  const sources = ['src', 'next.config.mjs', 'package.json', '../../packages/shared-rules/dist'].map((entry) =>
    join(PORTAL_DIR, entry),
  );
  return Math.max(...sources.map(newestMtime)) <= statSync(buildId).mtimeMs;
}

/** Runs `next build` unless the existing build is current. */
export function ensureProductionBuild(): void {
  if (productionBuildIsCurrent()) return;
  const result = spawnSync(process.execPath, [NEXT_BIN, 'build'], {
    cwd: PORTAL_DIR,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`next build failed with status ${result.status}`);
}

export type RunningPortal = PortalServer;

/**
 * Starts `next start` (the production build) on a free port with the given environment and
 * waits until it answers. Pass PORTAL_MOCK_PLATFORM: 'true' for development mode, or a
 * KUBECONFIG (and PORTAL_MOCK_PLATFORM: 'false') for a cluster.
 */
export function startPortal(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningPortal> {
  return startPortalServer({ env, startTimeoutMs: timeoutMs });
}

export interface BrowserSession {
  context: BrowserContext;
  /** Console errors and uncaught page errors from every page opened in this session. */
  errors: string[];
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Debian's Chromium with a fresh, throw-away profile. */
export async function launchBrowser(): Promise<BrowserSession> {
  const { context, close } = await launchChromium('portal-e2e');
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${message.location().url || page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    context,
    errors,
    async newPage(viewport) {
      const page = await context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      return page;
    },
    close,
  };
}

/** Saves a full-page PNG into e2e/artifacts/ (kept out of git); a name may include a folder. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
  return path;
}

const DOCS_IMAGES_DIR = fileURLToPath(new URL('../../../docs/images/', import.meta.url));

/**
 * The README's screenshots, taken by the journeys: written to docs/images/ only with
 * DOCS_SCREENSHOTS=1 (`npm run docs:screenshots -w apps/portal`), so a test run leaves the
 * committed images alone. The browser window's view, not the full page, so they stay readable.
 */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  if (process.env['DOCS_SCREENSHOTS'] !== '1') return;
  mkdirSync(DOCS_IMAGES_DIR, { recursive: true });
  await page.screenshot({ path: join(DOCS_IMAGES_DIR, `${name}.png`) });
}

/**
 * Waits until React has revealed every streamed Suspense segment. Until then a segment's
 * content sits in a hidden container at the end of <body> and can be found twice by locators
 * that ignore visibility (test ids, labels), once hidden and once revealed.
 */
export async function waitForStreamedContent(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.waitForFunction(() => document.querySelector('div[hidden][id^="S:"]') === null);
}

/** How long a journey waits for the stand-in's reconciliation and the portal's caches to catch up. */
export const SETTLE_TIMEOUT_MS = 30_000;

/** Polls `check` until it answers a value, for at most SETTLE_TIMEOUT_MS; fails naming `what` and the last error. */
export function until<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  return eventually(check, what, SETTLE_TIMEOUT_MS, 200);
}

/** A call to a portal's platform API (/api/platform...) with a JSON body, as the pages' scripts make it. */
export async function callPlatform<T>(
  portal: { url: string },
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${portal.url}/api/platform${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  return { status: response.status, body: (await response.json()) as T };
}

export interface ClusterJourney {
  cluster: TestCluster;
  standIn: StandIn;
  portal: PortalServer;
  browser: BrowserSession;
  /** Closes the browser, stops the portal and disposes of the cluster. */
  close(): Promise<void>;
}

/**
 * A journey's world: the production portal on `cluster` (without sign-in unless `env` sets
 * PORTAL_AUTH; sign-in has journeys of its own) and Chromium. The journey owns the cluster from
 * here: close() disposes of it, and so does a failure to start.
 */
export async function startClusterJourney(
  cluster: TestCluster,
  env: Record<string, string> = {},
): Promise<ClusterJourney> {
  let portal: PortalServer | undefined;
  try {
    portal = await startPortalServer({ kubeconfigPath: cluster.kubeconfigPath, env: { PORTAL_AUTH: 'none', ...env } });
    const browser = await launchBrowser();
    const started = portal;
    return {
      cluster,
      standIn: cluster.standIn,
      portal,
      browser,
      async close() {
        await browser.close();
        await started.stop();
        await cluster.dispose();
      },
    };
  } catch (error) {
    await portal?.stop();
    await cluster.dispose();
    throw error;
  }
}

export interface SignInJourney extends ClusterJourney {
  provider: TestIdentityProvider;
}

/**
 * A sign-in journey's world: a real OpenID Provider with `users`, the production portal on
 * `cluster` signing people in there (PORTAL_AUTH=oidc; platform-admins are admins, developers
 * requesters), and Chromium. As with startClusterJourney, close() disposes of the cluster.
 */
export async function startSignInJourney(
  cluster: TestCluster,
  options: { users: readonly TestUser[]; clientSecret: string; sessionSecret: string; env?: Record<string, string> },
): Promise<SignInJourney> {
  let provider: TestIdentityProvider | undefined;
  let portal: PortalServer | undefined;
  try {
    const [providerPort, portalPort] = [await freePort(), await freePort()];
    const portalUrl = `http://127.0.0.1:${portalPort}`;
    const client = {
      clientId: 'platform-portal',
      clientSecret: options.clientSecret,
      redirectUri: `${portalUrl}/api/auth/callback/oidc`,
      postLogoutRedirectUri: `${portalUrl}/signed-out`,
    };
    provider = await startTestIdentityProvider({ port: providerPort, users: options.users, client });
    portal = await startPortalServer({
      kubeconfigPath: cluster.kubeconfigPath,
      port: portalPort,
      env: {
        PORTAL_AUTH: 'oidc',
        PORTAL_OIDC_ISSUER: provider.issuer,
        PORTAL_OIDC_CLIENT_ID: client.clientId,
        PORTAL_OIDC_CLIENT_SECRET: client.clientSecret,
        PORTAL_OIDC_SCOPES: 'groups',
        PORTAL_PUBLIC_URL: portalUrl,
        PORTAL_SESSION_SECRET: options.sessionSecret,
        PORTAL_ADMIN_GROUPS: 'platform-admins',
        PORTAL_REQUESTER_GROUPS: 'developers',
        ...options.env,
      },
    });
    const browser = await launchBrowser();
    const [startedProvider, startedPortal] = [provider, portal];
    return {
      cluster,
      standIn: cluster.standIn,
      provider,
      portal,
      browser,
      async close() {
        await browser.close();
        await startedPortal.stop();
        await startedProvider.close();
        await cluster.dispose();
      },
    };
  } catch (error) {
    await portal?.stop();
    await provider?.close();
    await cluster.dispose();
    throw error;
  }
}

/** Asks the portal for a storage account of the `journey` application in rg-books-dev, as the workflow would. */
export function requestAccount(
  portal: { url: string },
  name: string,
  settings: Record<string, unknown> = {},
): Promise<{ status: number; body: unknown }> {
  return callPlatform(portal, '/resources', {
    method: 'POST',
    body: JSON.stringify({
      name,
      application: 'journey',
      environment: 'dev',
      resourceGroup: 'rg-books-dev',
      location: 'westeurope',
      ...settings,
    }),
  });
}
