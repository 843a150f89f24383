/**
 * The world both remediation journeys run in (remediation-journey.test.ts, the cluster's side, and
 * cloud-remediation-journey.test.ts, Azure's): the production server against the Kubernetes
 * stand-in and the ARM stand-in on one simulated Azure, the ledger in a throwaway PostgreSQL, cloud
 * observation through the official SDK, real kubectl and Chromium; and the steps their tests take:
 * reading an account's class, editing it behind the portal's back, and a remediation's review.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { startPostgres, type TestPostgres } from '@books/test-postgres';
import type { Locator, Page } from 'playwright-core';
import { armClientEnvironment, type StandIn } from '../kube-stand-in/index';
import type { PortalServer } from '../kube-stand-in/portal-server';
import { startTestCluster } from '../test/kubernetes-harness';
import { armAccountRequest } from '../test/stand-in-client';
import { seriousAccessibilityViolations } from './axe';
import {
  callPlatform,
  requestAccount,
  screenshot as saveScreenshot,
  startClusterJourney,
  until,
  waitForStreamedContent,
  type BrowserSession,
  type ClusterJourney,
} from './harness';
import { kubectlFor, type Kubectl } from './kubectl';

const TIMING = { syncedDelayMs: 100, readyDelayMs: 500, deleteDelayMs: 500, retryDelayMs: 1000 };

// Set by runInRemediationJourney's before(); importers see them (live bindings) once it has run.
let journey: ClusterJourney | undefined;
let postgres: TestPostgres | undefined;
export let standIn: StandIn;
export let portal: PortalServer;
export let browser: BrowserSession;
export let kubectl: Kubectl;

interface Classification {
  code: string;
  fields: string[];
}

export interface Item {
  name: string;
  state: string;
  resourceVersion?: string;
  source?: string;
  observeOnly?: boolean;
  classification: Classification;
}

interface HistoryEntry {
  action: string;
  by: string;
  status: string;
  changes: { field: string; from?: unknown; to?: unknown }[];
}

export const screenshot = (page: Page, name: string) => saveScreenshot(page, `remediation/${name}`);

export const api = <T>(path: string, init?: RequestInit) => callPlatform<T>(portal, path, init);

async function item(name: string): Promise<Item | undefined> {
  const { status, body } = await api<{ item: Item }>(`/resources?name=${name}`);
  return status === 200 ? body.item : undefined;
}

/** Waits until the API classifies the account so, and answers it. */
export function classified(name: string, code: string, fields?: string[]): Promise<Item> {
  return until(
    async () => {
      const found = await item(name);
      if (found?.classification.code !== code) return undefined;
      if (fields && JSON.stringify(found.classification.fields) !== JSON.stringify(fields)) return undefined;
      return found;
    },
    `${name} to read ${code}${fields ? ` (${fields.join(', ')})` : ''}`,
  );
}

export async function history(name: string): Promise<HistoryEntry[]> {
  return (await api<{ items: HistoryEntry[] }>(`/resources/history?name=${name}`)).body.items;
}

export async function createThroughPortal(name: string): Promise<Item> {
  const created = await requestAccount(portal, name, { accessTier: 'Hot' });
  assert.equal(created.status, 201);
  return classified(name, 'in_sync');
}

/** Writes to the account in Azure through ARM, as anything editing Azure outside Crossplane would. */
export async function armWrite(method: 'PUT' | 'PATCH', group: string, name: string, body: unknown): Promise<void> {
  assert.equal(await armAccountRequest(standIn, method, group, name, body), 200);
}

/** Creates the cluster object with kubectl behind the portal's back, and waits until the portal sees it. */
export async function kubectlCreate(name: string, spec: Record<string, unknown>): Promise<void> {
  await kubectl(
    ['create', '-f', '-'],
    JSON.stringify({ apiVersion: 'storage.azure.upbound.io/v1beta1', kind: 'Account', metadata: { name }, spec }),
  );
  await until(async () => ((await item(name))?.source === 'cluster' ? true : undefined), 'the portal to see it');
}

export function forProvider(name: string): Record<string, unknown> {
  const account = standIn.accounts().find((a) => a.metadata.name === name);
  return (account?.spec?.['forProvider'] ?? {}) as Record<string, unknown>;
}

export async function openDetail(name: string): Promise<Page> {
  const page = await browser.newPage({ width: 1280, height: 900 });
  await page.goto(`${portal.url}/resources/${name}`);
  await waitForStreamedContent(page);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  return page;
}

/** The Intent section's verdict, by its class. */
export function verdict(page: Page, code: string): Locator {
  return page.locator(`[role="status"][data-classification="${code}"]`);
}

/** Reloads the page until the Intent section shows this class (the portal's caches catch up). */
export async function reloadUntil(page: Page, code: string): Promise<void> {
  await until(async () => {
    await page.reload();
    await waitForStreamedContent(page);
    return (await verdict(page, code).count()) > 0 ? true : undefined;
  }, `the page to show ${code}`);
}

/** Clicks Apply in a review and waits for the page to say the remediation was accepted. */
export async function apply(page: Page, dialog: Locator, button: string): Promise<void> {
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `${button}: accepted` })
    .waitFor();
}

/** Clicks Apply in a review that no longer holds, and answers the dialog's alert once it says `why`. */
export async function applyRefused(dialog: Locator, why: RegExp): Promise<Locator> {
  await dialog.getByRole('button', { name: 'Apply' }).click();
  const alert = dialog.getByRole('alert');
  await alert.getByText(why).waitFor();
  return alert;
}

/** Leaves a review refused as stale: the dialog closes on the latest version of the account. */
export async function loadLatest(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Load the latest version' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Opens a remediation's review: the server's dry run answers, and the dialog lists what it changes. */
export async function review(
  page: Page,
  button: string,
  name: string,
): Promise<{ dialog: Locator; changes: string[] }> {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `${button}: ${name}` });
  await dialog.getByText('The cluster accepted a dry run of this.').waitFor();
  const changes = await dialog.getByRole('list', { name: 'What this changes' }).getByRole('listitem').allInnerTexts();
  return { dialog, changes };
}

export function dryRuns(verb: 'create' | 'patch', name: string): number {
  return standIn
    .requests()
    .filter(
      (r) =>
        r.verb === verb &&
        r.query.includes('dryRun=All') &&
        (verb === 'create' ? r.path.endsWith('/accounts') : r.path.endsWith(`/accounts/${name}`)),
    ).length;
}

export async function assertAccessible(page: Page, what: string): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  assert.deepEqual(await seriousAccessibilityViolations(page), [], `axe-core found serious violations on ${what}`);
}

/** What the browser logged but the 409s of applies refused on purpose. */
export function browserErrorsButRefusedApplies(): string[] {
  return browser.errors.filter((error) => !/remediate.*status of 409/.test(error));
}

/** Starts the world before the file's tests and stops it after them. */
export function runInRemediationJourney(): void {
  before(async () => {
    const [cluster, databaseUrl] = await Promise.all([
      startTestCluster({ timing: TIMING }),
      startPostgres().then((server) => {
        postgres = server;
        return server.createDatabase('portal_remediation_journey');
      }),
    ]);
    // No sign-in (the journey's default): every request is an admin, who may take every remediation
    // (roles have route tests).
    journey = await startClusterJourney(cluster, {
      PORTAL_DATABASE_URL: databaseUrl,
      PORTAL_OBSERVATION_TTL_SECONDS: '1',
      ...armClientEnvironment(cluster.standIn, cluster.caPath),
    });
    ({ standIn, portal, browser } = journey);
    kubectl = kubectlFor(cluster.kubeconfigPath, cluster.directory);
  });

  after(async () => {
    await journey?.close();
    await postgres?.stop();
  });
}
