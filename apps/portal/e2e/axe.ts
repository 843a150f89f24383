/**
 * axe-core in the journeys' Chromium: injected into the page under test, run on the whole
 * document, and reduced to the serious and critical violations, which every page must be free of.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Puts axe-core into the page through the DevTools protocol: a script tag would be an inline
 * script, which the portal's Content-Security-Policy refuses (it has no nonce).
 */
async function injectAxe(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('Runtime.evaluate', { expression: AXE_SOURCE });
  } finally {
    await session.detach();
  }
}

/** "color-contrast (serious): Elements must meet ... — .MuiChip-label" for every serious or critical finding. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof import('axe-core') };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation): Violation => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.targets.join(', ')}`);
}

export interface ContrastResult {
  /** Elements axe-core measured and found readable. */
  passes: number;
  /** Elements under 4.5:1 (3:1 for large text), as "selector: message". */
  violations: string[];
  /** Elements axe-core could not measure (e.g. text over an image); none is expected here. */
  incomplete: number;
}

/** axe-core's color-contrast rule on the elements that match a selector, with how many it measured. */
export async function contrastOf(page: Page, selector: string): Promise<ContrastResult> {
  await injectAxe(page);
  return page.evaluate(async (include) => {
    const { axe } = window as unknown as { axe: typeof import('axe-core') };
    const result = await axe.run({ include: [include] }, { runOnly: ['color-contrast'] });
    // No named helpers in here: the test runner's transform would reference a helper the page lacks.
    return {
      passes: result.passes.reduce((count, rule) => count + rule.nodes.length, 0),
      violations: result.violations.flatMap((rule) =>
        rule.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
      ),
      incomplete: result.incomplete.reduce((count, rule) => count + rule.nodes.length, 0),
    };
  }, selector);
}
