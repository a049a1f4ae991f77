import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inspect, isDeepStrictEqual } from 'node:util';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { colorSchemeKey } from '../../../packages/web/src/shell/theme.ts';
import { setUpAccount, startTestServer, type TestServer } from '../../support/server.ts';
import { untilHolds } from '../../support/wait.ts';

/** Debian's chromium (tools/install-system-deps); no browser download is possible here. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotDir = path.resolve(import.meta.dirname, '../screenshots');
export const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/**
 * How long a browser test waits for a state before it fails. A wait ends as soon as its state holds, so a
 * generous bound costs nothing when all is well and keeps a loaded 2-core machine from failing a test.
 */
export const patience = 90_000;
/** The bound of one browser test (or a hook that builds its data): several waits in a row, each up to `patience`. */
export const testTimeout = 10 * patience;

/**
 * Polls `probe` until its value meets the matcher, within `patience`: `await eventually(() => rows.count()).toBe(3)`.
 * A probe that throws (a page between two documents) is asked again; the timeout error shows the last answer.
 */
export function eventually<T>(probe: () => T | Promise<T>, options: { message?: string; interval?: number } = {}) {
  const answer = async (): Promise<{ value: T } | { error: unknown }> => {
    try {
      return { value: await probe() };
    } catch (error) {
      return { error };
    }
  };
  const meets = (matcher: string, expected: unknown, holds: (value: T) => boolean) =>
    untilHolds(answer, (last) => 'value' in last && holds(last.value), {
      timeoutMs: patience,
      intervalMs: options.interval ?? 100,
      what: `${options.message ? `${options.message}: ` : ''}${matcher}(${inspect(expected)})`,
    }).then(() => undefined);
  return {
    toBe: (expected: T) => meets('toBe', expected, (value) => Object.is(value, expected)),
    toEqual: (expected: T) => meets('toEqual', expected, (value) => isDeepStrictEqual(value, expected)),
    toContain: (item: T extends string ? string : T extends readonly (infer E)[] ? E : never) =>
      meets('toContain', item, (value) =>
        typeof value === 'string' ? value.includes(item as string) : (value as unknown[]).includes(item),
      ),
    toMatch: (pattern: RegExp) => meets('toMatch', pattern, (value) => pattern.test(String(value))),
    toBeGreaterThan: (bound: number) => meets('toBeGreaterThan', bound, (value) => (value as number) > bound),
  };
}

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
  page.setDefaultTimeout(patience);
  return { browser, context, page, close: () => browser.close() };
}

/** Opens `path` signed out and signs in as the operator through the form, as a person would. */
export async function signInAt(page: Page, path: string, password: string): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Username').fill('operator');
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // A test moving on while the sign-in still runs would cut it off and meet its next screen signed out.
  await page.getByRole('heading', { name: 'Sign in' }).waitFor({ state: 'detached' });
}

export interface SignedInBrowser {
  server: TestServer;
  page: Page;
  /** The operator's session cookie, for the API calls a test makes beside the browser. */
  cookie: string;
}

/**
 * For the describe block it is called in: a real server with the operator's account and a browser signed
 * in at `path`, set up before its tests and closed after them. The fields are filled once set up.
 */
export function useSignedInBrowser(path: string, password: string): SignedInBrowser {
  const ready = {} as SignedInBrowser;
  let session: Session | undefined;
  beforeAll(async () => {
    ready.server = await startTestServer();
    ready.cookie = await setUpAccount(ready.server, 'operator', password);
    session = await openBrowser(ready.server.url);
    ready.page = session.page;
    await signInAt(ready.page, path, password);
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await ready.server?.stop();
  });
  return ready;
}

/**
 * Fails on any serious or critical accessibility violation of what the page shows now. axe is loaded into a
 * document once and asked for violations only: the interface has no frames, and the playwright wrapper's
 * per-call injection and finishing page cost eight times the check itself (docs/decisions/0043).
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }),
  );
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
        await settled(page, scheme);
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

/** The screen at 1440 px as well, light and dark, checked with axe like the other sizes: for wide layouts. */
export async function captureWide(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  try {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await settled(page, scheme);
      await page.screenshot({ path: path.join(screenshotDir, `${name}-wide-${scheme}.png`) });
      await expectAccessible(page, `${name} wide ${scheme}`);
    }
  } finally {
    await page.setViewportSize(viewports.desktop);
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  }
}

/**
 * Waits until the page shows its final picture after a resize or a scheme change: fonts loaded, the
 * interface in the emulated scheme (unless this browser chose one), and no transition or finite
 * animation still running (spinners and progress stripes repeat forever and are not waited for).
 */
export async function settled(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(
    ({ emulated, key }) => {
      const chosen = window.localStorage.getItem(key);
      const expected = chosen === 'light' || chosen === 'dark' ? chosen : emulated;
      return document.documentElement.dataset.mantineColorScheme === expected;
    },
    { emulated: scheme, key: colorSchemeKey },
  );
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
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
