import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it when missing). */
export const CHROMIUM = process.env.PPFILE_CHROMIUM ?? '/usr/bin/chromium';

/** The flags of the issue: headless, no sandbox (root in CI), nothing fetched from Google's services. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Where screenshots go: a fresh directory under the system's temporary directory. */
  screenshotDir: string;
  /** Saves a full-page PNG of the current page as `<n>-<name>.png`, also under PPFILE_SCREENSHOTS when set. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Chromium headless with a fresh profile (--user-data-dir in a new temporary directory, removed at
 * close). Fails loudly when Chromium is missing: the browser tests must never be skipped silently.
 */
export async function launchBrowser(options: { locale?: string } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: the dashboard's browser tests need it. Install it with ` +
        '`apt-get install -y chromium` (Debian; .ci/run does so on CI), or set PPFILE_CHROMIUM to its path.',
    );
  }
  const profile = mkdtempSync(path.join(tmpdir(), 'ppfile-chromium-'));
  const screenshotDir = mkdtempSync(path.join(tmpdir(), 'ppfile-dashboard-screenshots-'));
  const extraDir = process.env.PPFILE_SCREENSHOTS;
  if (extraDir) mkdirSync(extraDir, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
    locale: options.locale ?? 'en-GB',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  let shots = 0;
  return {
    context,
    page,
    screenshotDir,
    async screenshot(name: string): Promise<string> {
      const file = `${String(++shots).padStart(2, '0')}-${name}.png`;
      const target = path.join(screenshotDir, file);
      await page.screenshot({ path: target, fullPage: true });
      if (extraDir) await page.screenshot({ path: path.join(extraDir, file), fullPage: true });
      return target;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
