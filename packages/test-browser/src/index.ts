/**
 * Debian's Chromium for the browser tests of both apps (and the portal's bench), driven through
 * playwright-core: never a downloaded browser. Each launch gets a fresh, throw-away profile, and
 * flags that keep the browser from calling anywhere but the pages under test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface Chromium {
  context: BrowserContext;
  /** Closes the browser and removes its profile (a plain function: it can be handed on). */
  close: () => Promise<void>;
}

/** Launches Chromium headless at 1280×900, its profile in a new temporary folder named after `name`. */
export async function launchChromium(name: string): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), `${name}-profile-`));
  const removeProfile = () => rmSync(profile, { recursive: true, force: true });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
  } catch (error) {
    removeProfile();
    throw error;
  }
  return {
    context,
    close: async () => {
      await context.close();
      removeProfile();
    },
  };
}
