/**
 * Accessibility in Chromium on the production build in development mode: axe-core finds no
 * serious or critical violation on any page in light mode, dark mode and at phone width; the
 * skip link, focus after navigation, the current navigation item, the phone drawer's name, the
 * phone inventory and the HTTP status of error pages.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { DEVELOPMENT_MODE_EMPTY_INVENTORY } from '../src/components/resources/empty-inventory';
import { contrastOf, seriousAccessibilityViolations } from './axe';
import {
  ensureProductionBuild,
  launchBrowser,
  screenshot,
  startPortal,
  waitForStreamedContent,
  type BrowserSession,
  type RunningPortal,
} from './harness';
import { EVERY_PAGE } from './pages';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

let portal: RunningPortal;
let browser: BrowserSession;
const pages: Page[] = [];

async function open(path: string, options: { viewport?: typeof PHONE; dark?: boolean } = {}): Promise<Page> {
  const page = await browser.newPage(options.viewport ?? DESKTOP);
  pages.push(page);
  await page.emulateMedia({ colorScheme: options.dark ? 'dark' : 'light' });
  await page.goto(`${portal.url}${path}`);
  await waitForStreamedContent(page);
  return page;
}

async function assertAccessible(page: Page, what: string): Promise<void> {
  const violations = await seriousAccessibilityViolations(page);
  assert.deepEqual(violations, [], `axe-core found serious violations on ${what}`);
}

async function assertNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  assert.ok(scrollWidth <= innerWidth, `${what} is ${scrollWidth}px wide in a ${innerWidth}px viewport`);
}

before(async () => {
  ensureProductionBuild();
  portal = await startPortal({ PORTAL_MOCK_PLATFORM: 'true' });
  browser = await launchBrowser();
});

afterEach(async () => {
  // The not-found page is asked for on purpose; Chromium logs its 404 status, which is no page error.
  const errors = browser.errors.splice(0).filter((error) => !error.includes('404 (Not Found)'));
  await Promise.all(pages.splice(0).map((page) => page.close()));
  assert.deepEqual(errors, [], 'the browser console reported errors');
});

after(async () => {
  await browser?.close();
  await portal?.stop();
});

describe('accessibility of every page', () => {
  for (const [variant, options] of [
    ['light', {}],
    ['dark', { dark: true }],
    ['phone', { viewport: PHONE }],
  ] as const) {
    it(`has no serious axe-core violations on any page (${variant})`, async () => {
      // Every page is checked before failing, so one run reports every page's problems.
      const found: string[] = [];
      for (const [path, heading] of EVERY_PAGE) {
        const page = await open(path, options);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        if (variant === 'dark') {
          assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), true);
        }
        found.push(...(await seriousAccessibilityViolations(page)).map((violation) => `${path}: ${violation}`));
        if (variant === 'phone') await assertNoHorizontalOverflow(page, `${path} at phone width`);
        await page.close();
      }
      assert.deepEqual(found, [], `axe-core found serious violations (${variant})`);
    });
  }

  it('has no serious violations with the change dialog open, nor with the phone navigation open', async () => {
    const page = await open('/resources/stdemo01');
    await page.getByRole('button', { name: 'Change settings' }).click();
    await page.getByRole('dialog', { name: 'Change settings of stdemo01' }).waitFor();
    await assertAccessible(page, 'the change dialog');

    const phone = await open('/resources', { viewport: PHONE, dark: true });
    await phone.getByRole('button', { name: 'Open navigation' }).click();
    await phone.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Catalog' }).waitFor();
    await assertAccessible(phone, 'the phone navigation drawer');
  });
});

describe('disabled fields', () => {
  for (const [variant, dark] of [
    ['light', false],
    ['dark', true],
  ] as const) {
    it(`keeps the helper text under a disabled field readable, 4.5:1 or more (${variant})`, async () => {
      const page = await open('/catalog/azure-storage', { dark });
      // BlockBlobStorage disables the tier and access tier fields; their helper text says why.
      await page.getByRole('combobox', { name: 'Account kind' }).click();
      await page.getByRole('option', { name: 'BlockBlobStorage' }).click();
      const disabledHelpers = '.MuiFormHelperText-root.Mui-disabled';
      await page.getByText('BlockBlobStorage accounts take no access tier.').waitFor();
      const stepOne = await contrastOf(page, disabledHelpers);
      assert.deepEqual(stepOne.violations, []);
      assert.equal(stepOne.incomplete, 0, 'axe-core measured every disabled helper text');
      assert.ok(stepOne.passes >= 2, `axe-core measured ${stepOne.passes} disabled helper texts on step 1`);

      // Step 2: the IP ranges field is disabled while public network access is off.
      await page.getByRole('textbox', { name: 'Application' }).fill('contrast');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Step 2 of 3: Networking and security' }).waitFor();
      await page.getByRole('textbox', { name: 'Allowed IP ranges' }).and(page.locator(':disabled')).waitFor();
      const stepTwo = await contrastOf(page, disabledHelpers);
      assert.deepEqual(stepTwo.violations, []);
      assert.equal(stepTwo.incomplete, 0, 'axe-core measured every disabled helper text');
      assert.ok(stepTwo.passes >= 1, `axe-core measured ${stepTwo.passes} disabled helper texts on step 2`);
      await assertAccessible(page, `step 2 of the workflow (${variant})`);
      await screenshot(page, `disabled-helper-text-${variant}`);
    });
  }
});

describe('keyboard and screen reader use', () => {
  it('offers a skip link first that moves focus to the main content', async () => {
    const page = await open('/catalog');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    assert.equal(await skip.evaluate((element) => element === document.activeElement), true);
    await screenshot(page, 'skip-link');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'main-content');
  });

  it('moves focus to the new page heading after navigating, and marks the current section', async () => {
    const page = await open('/');
    const navigation = page.getByRole('navigation', { name: 'Main navigation' });
    await navigation.getByRole('link', { name: 'Applications' }).click();
    await page.waitForURL('**/applications');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Applications');

    const current = navigation.getByRole('link', { name: 'Applications' });
    const other = navigation.getByRole('link', { name: 'Catalog' });
    assert.equal(await current.getAttribute('aria-current'), 'page');
    assert.equal(await other.getAttribute('aria-current'), null);
    const style = (locator: typeof current) =>
      locator.evaluate((element) => {
        const computed = getComputedStyle(element);
        return { border: computed.borderLeftColor, color: computed.color };
      });
    const [currentStyle, otherStyle] = await Promise.all([style(current), style(other)]);
    assert.notEqual(currentStyle.border, otherStyle.border, 'the current item has a visible bar');
    assert.notEqual(currentStyle.color, otherStyle.color, 'the current item has its own text color');
  });

  it('names the phone navigation drawer', async () => {
    const page = await open('/', { viewport: PHONE });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.locator('.MuiDrawer-modal .MuiDrawer-paper');
    await drawer.waitFor();
    assert.equal(await drawer.getAttribute('aria-label'), 'Navigation menu');
    await drawer.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
  });

  it('answers 404 for unknown pages and unknown resources', async () => {
    const page = await browser.newPage(DESKTOP);
    pages.push(page);
    assert.equal((await page.goto(`${portal.url}/no-such-page`))?.status(), 404);
    assert.equal((await page.goto(`${portal.url}/resources/No_Such_Account`))?.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Resource not found' }).waitFor();
  });
});

describe('phone layouts', () => {
  it('shows the empty inventory whole, with a way to request an account', async () => {
    const page = await open('/resources', { viewport: PHONE });
    const empty = page.getByText(DEVELOPMENT_MODE_EMPTY_INVENTORY);
    await empty.waitFor();
    const clipped = await empty.evaluate((element) => element.scrollWidth > element.clientWidth);
    assert.equal(clipped, false, 'the empty-state message is not cut off');
    await page.getByRole('link', { name: 'Request a storage account' }).waitFor();
    await assertNoHorizontalOverflow(page, 'the empty inventory');
    await screenshot(page, 'phone-inventory-empty');
  });

  it('shows conditions and events as readable blocks on the detail page', async () => {
    const page = await open('/resources/stdemo01', { viewport: PHONE });
    const event = page.getByRole('list', { name: 'Events' }).getByRole('listitem').first();
    await event.waitFor();
    const width = await event.evaluate((element) => element.getBoundingClientRect().width);
    assert.ok(width > 300, `an event is ${width}px wide`);
    await page.getByRole('list', { name: 'Conditions' }).getByText('Ready: True (Available)').waitFor();
    await assertNoHorizontalOverflow(page, 'the detail page');
    await screenshot(page, 'phone-detail-events');
  });
});
