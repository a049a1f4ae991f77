import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's chromium (tools/install-system-deps); no browser download is possible here. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotDir = path.resolve(import.meta.dirname, '../screenshots');
export const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

export interface Session {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Builds the interface when a source file is newer than the build (install builds it once; this keeps edits honest). */
export function ensureWebBuilt(): void {
  execFileSync(
    process.execPath,
    [path.resolve(import.meta.dirname, '../../../packages/web/scripts/build-if-stale.mjs')],
    { stdio: 'inherit' },
  );
}

/** One headless browser and page for a whole test file (browsers are heavy on this machine). */
export async function openBrowser(baseURL: string): Promise<Session> {
  ensureWebBuilt();
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
  const context = await browser.newContext({
    baseURL,
    viewport: viewports.desktop,
    colorScheme: 'light',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { browser, context, page, close: () => browser.close() };
}

/** Fails on any serious or critical accessibility violation of what the page shows now. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  const summary = blocking.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
        .slice(0, 3)
        .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}`)
        .join(' | ')}`,
  );
  expect(summary, `${screen}: axe violations`).toEqual([]);
}

/**
 * Saves the screen at 1280×800 and 390×844, light and dark (tests/web/screenshots/<name>-<size>-<scheme>.png),
 * checking accessibility in each, then restores the desktop light view.
 */
export async function captureScreen(page: Page, name: string, settle?: (page: Page) => Promise<void>): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  // Nothing hovered: the capture shows the screen at rest.
  await page.mouse.move(0, 0);
  try {
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await page.waitForTimeout(150);
        await settle?.(page);
        await page.screenshot({ path: path.join(screenshotDir, `${name}-${size}-${scheme}.png`) });
        await expectAccessible(page, `${name} ${size} ${scheme}`);
      }
    }
  } finally {
    await page.setViewportSize(viewports.desktop);
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  }
}

/** Drops files onto an element the way a person drags them from the file manager: a real drop event carrying a DataTransfer. */
export async function dropFiles(
  page: Page,
  selector: string,
  files: { name: string; mimeType: string; buffer: Buffer }[],
): Promise<void> {
  const payload = files.map((file) => ({
    name: file.name,
    mimeType: file.mimeType,
    base64: file.buffer.toString('base64'),
  }));
  const transfer = await page.evaluateHandle((items) => {
    const data = new DataTransfer();
    for (const item of items) {
      const bytes = Uint8Array.from(atob(item.base64), (char) => char.charCodeAt(0));
      data.items.add(new File([bytes], item.name, { type: item.mimeType }));
    }
    return data;
  }, payload);
  const target = page.locator(selector);
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await target.dispatchEvent('dragover', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
}
