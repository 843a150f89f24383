/**
 * Reusable pieces for the portal's browser journeys: build if needed, start the production
 * server on a free port, launch Debian's Chromium with a fresh profile, fail on console errors,
 * and keep screenshots. Journeys against other backends (a Kubernetes stand-in) pass their
 * own environment to startPortal().
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const PORTAL_DIR = fileURLToPath(new URL('..', import.meta.url));
export const ARTIFACTS_DIR = join(PORTAL_DIR, 'e2e', 'artifacts');
const NEXT_BIN = fileURLToPath(new URL('../../../node_modules/next/dist/bin/next', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stat.mtimeMs);
}

/** True when .next holds a production build newer than every source file. */
export function productionBuildIsCurrent(): boolean {
  const buildId = join(PORTAL_DIR, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  const sources = ['src', 'next.config.ts', 'package.json'].map((entry) => join(PORTAL_DIR, entry));
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

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningPortal {
  url: string;
  /** Everything the server printed so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `next start` (the production build) on a free port with the given environment and
 * waits until it answers. Pass PORTAL_MOCK_PLATFORM: 'true' for development mode, or a
 * KUBECONFIG (and PORTAL_MOCK_PLATFORM: 'false') for a cluster.
 */
export async function startPortal(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningPortal> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, [NEXT_BIN, 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: PORTAL_DIR,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', PORTAL_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const portal: RunningPortal = { url, output: () => output, stop: () => stopChild(child) };

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The portal exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${url}/api/platform/resource-groups`);
      await response.body?.cancel();
      return portal;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  await portal.stop();
  throw new Error(`The portal did not answer within ${timeoutMs} ms:\n${output}`);
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
  const profile = mkdtempSync(join(tmpdir(), 'portal-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
  });
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
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
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page PNG into e2e/artifacts/ (kept out of git). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
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
