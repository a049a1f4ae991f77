import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, expectAccessible } from './support/browser.ts';

/** The check every screen's captures run: it must report what it exists for, in each new document. */
describe('the accessibility check', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage();
  }, 60_000);
  afterAll(() => browser?.close());

  const clean =
    '<html lang="en"><head><title>Clean</title></head><body><main><h1>Clean</h1><button>Save</button></main></body></html>';

  it('passes a page without violations', async () => {
    await page.setContent(clean);
    await expectAccessible(page, 'clean');
  });

  it('fails on a critical violation, in a document it has not been loaded into before', async () => {
    await page.setContent(clean);
    await expectAccessible(page, 'clean');
    await page.setContent(
      '<html lang="en"><head><title>Bad</title></head><body><main><h1>Bad</h1><button></button></main></body></html>',
    );
    await expect(expectAccessible(page, 'nameless button')).rejects.toThrow(/nameless button: axe violations/);
  });
});
