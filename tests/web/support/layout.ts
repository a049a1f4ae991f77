import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * For captureScreen's `settle`: on a phone-sized viewport, fails when the page scrolls sideways or a table is
 * wider than the screen or than the box it scrolls in. Wider viewports are left alone.
 */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? Infinity;
  if (width > 480) return;
  const sizes = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
    // What sticks out, to say where the trouble is.
    wide: [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 3)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 80)),
    tables: [...document.querySelectorAll('table')]
      .filter((table) => {
        const width = table.getBoundingClientRect().width;
        const room = table.parentElement?.getBoundingClientRect().width ?? window.innerWidth;
        return width > 0 && (width > window.innerWidth || width > room + 1);
      })
      .map((table) => table.getAttribute('aria-label') ?? table.innerText.slice(0, 40)),
  }));
  expect(sizes.tables, `tables that scroll sideways at ${width} px`).toEqual([]);
  expect(sizes.scroll, `the page scrolls sideways at ${width} px: ${sizes.wide.join(' | ')}`).toBeLessThanOrEqual(
    sizes.inner,
  );
}
