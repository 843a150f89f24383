/**
 * Lighthouse's accessibility category on every page of the production build in development mode:
 * light and dark on a desktop, and a 390 px phone. Every page must score 100. Lighthouse drives
 * Debian's Chromium through chrome-launcher (never a downloaded browser) and needs no network:
 * only the accessibility category runs, against the portal on 127.0.0.1.
 * Run alone: npm run test:lighthouse -w apps/portal
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@books/test-browser';
import { ARTIFACTS_DIR, ensureProductionBuild, startPortal, type RunningPortal } from './harness';
import { EVERY_PAGE } from './pages';

const NOT_FOUND_PAGE = '/no-such-page';
const PHONE = { mobile: true, width: 390, height: 844, deviceScaleFactor: 3, disabled: false };
const DESKTOP = { mobile: false, width: 1280, height: 900, deviceScaleFactor: 1, disabled: false };

const VARIANTS = [
  { name: 'light', dark: false, formFactor: 'desktop', screenEmulation: DESKTOP },
  { name: 'dark', dark: true, formFactor: 'desktop', screenEmulation: DESKTOP },
  { name: 'phone', dark: false, formFactor: 'mobile', screenEmulation: PHONE },
] as const;

let portal: RunningPortal;
let chrome: LaunchedChrome;
let browser: Browser;

interface PageScore {
  path: string;
  score: number;
  failed: string[];
}

/** One Lighthouse accessibility run; the failed audits as "id: title — selectors". */
async function audit(path: string, variant: (typeof VARIANTS)[number]): Promise<PageScore> {
  const page = await browser.newPage();
  try {
    // Lighthouse keeps the page's media emulation, so the portal follows a dark system preference.
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: variant.dark ? 'dark' : 'light' }]);
    const flags: Flags = {
      onlyCategories: ['accessibility'],
      formFactor: variant.formFactor,
      screenEmulation: variant.screenEmulation,
      // Nothing to throttle: the score does not depend on speed, and the machine is busy enough.
      throttlingMethod: 'provided',
      logLevel: 'error',
      output: 'json',
      // The not-found page answers 404 on purpose; Lighthouse would otherwise refuse to audit it.
      ignoreStatusCode: path === NOT_FOUND_PAGE,
    };
    const result = await lighthouse(`${portal.url}${path}`, flags, undefined, page);
    assert.ok(result, `Lighthouse gave no result for ${path}`);
    const { lhr } = result;
    if (variant.dark) {
      assert.equal(
        await page.evaluate(() => document.documentElement.classList.contains('dark')),
        true,
        `${path} was audited in dark mode`,
      );
    }
    const category = lhr.categories['accessibility'];
    const failed = (category?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((entry) => entry !== undefined && entry.score !== null && entry.score < 1)
      .map((entry) => {
        const items = (entry?.details as { items?: { node?: { selector?: string } }[] } | undefined)?.items ?? [];
        const selectors = items.map((item) => item.node?.selector).filter(Boolean);
        return `${entry?.id}: ${entry?.title}${selectors.length > 0 ? ` — ${selectors.slice(0, 5).join(', ')}` : ''}`;
      });
    const name = `${variant.name}${path.replace(/[^a-z0-9]+/gi, '-')}`;
    mkdirSync(join(ARTIFACTS_DIR, 'lighthouse'), { recursive: true });
    writeFileSync(join(ARTIFACTS_DIR, 'lighthouse', `${name}.json`), JSON.stringify(lhr, null, 1));
    if (lhr.runtimeError) failed.push(`runtime error: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    return { path, score: Math.round((category?.score ?? 0) * 100), failed };
  } finally {
    await page.close();
  }
}

before(async () => {
  ensureProductionBuild();
  portal = await startPortal({ PORTAL_MOCK_PLATFORM: 'true' });
  chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'error' });
  browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
});

after(async () => {
  await browser?.disconnect();
  chrome?.kill();
  await portal?.stop();
});

describe('Lighthouse accessibility', () => {
  for (const variant of VARIANTS) {
    it(`scores 100 on every page (${variant.name})`, async () => {
      // Every page is audited before failing, so one run reports every page's findings.
      const scores: PageScore[] = [];
      for (const [path] of EVERY_PAGE) scores.push(await audit(path, variant));
      console.log(
        `Lighthouse accessibility (${variant.name}): ${scores.map((s) => `${s.path} ${s.score}`).join(', ')}`,
      );
      assert.deepEqual(
        scores.filter((s) => s.score < 100).map((s) => `${s.path} ${s.score}: ${s.failed.join('; ')}`),
        [],
      );
    });
  }
});
