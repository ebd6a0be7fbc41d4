import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

export interface ScreenshotOptions {
  /** The whole page (the default) or only the viewport (smaller files: the phone's images). */
  fullPage?: boolean;
  /** The docs' image this screenshot is (`build-desktop-en.png`), written under PPFILE_DOC_SCREENSHOTS. */
  doc?: string;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Where screenshots go: a fresh directory under the system's temporary directory. */
  screenshotDir: string;
  /**
   * Saves a PNG of the current page (the full page, or the viewport with `fullPage: false`) as
   * `<n>-<name>.png`, also under PPFILE_SCREENSHOTS when set; with `doc`, also as that file name under
   * PPFILE_DOC_SCREENSHOTS when set (the images of the docs, kept in the repository).
   */
  screenshot(name: string, options?: ScreenshotOptions): Promise<string>;
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
    async screenshot(name: string, options: ScreenshotOptions = {}): Promise<string> {
      const file = `${String(++shots).padStart(2, '0')}-${name}.png`;
      const target = path.join(screenshotDir, file);
      const png = await page.screenshot({ path: target, fullPage: options.fullPage ?? true });
      if (extraDir) writeFileSync(path.join(extraDir, file), png);
      const docDir = process.env.PPFILE_DOC_SCREENSHOTS;
      if (options.doc && docDir) {
        mkdirSync(docDir, { recursive: true });
        writeFileSync(path.join(docDir, options.doc), png);
      }
      return target;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
