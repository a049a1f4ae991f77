import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectNoSidewaysScroll } from './layout.ts';

/**
 * For captureScreen's `settle`: on a phone-sized viewport, fails when the shell is still sliding over from
 * the desktop layout (navigation on screen, content pushed right) at the moment the screen is shown.
 */
export async function expectShellSettled(page: Page): Promise<void> {
  if ((page.viewportSize()?.width ?? Infinity) > 480) return;
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    const main = document.getElementById('main');
    const padding = main ? getComputedStyle(main).paddingLeft : '16px';
    if (padding !== '16px') found.push(`the content starts ${padding} from the left edge, not 16px`);
    const nav = document.querySelector('nav[aria-label="Main"]');
    if (nav && nav.getBoundingClientRect().right > 0) found.push('the closed navigation is still on screen');
    return found;
  });
  expect(problems, 'the phone layout is not in place').toEqual([]);
}

/** Both phone checks, for the screens of the shell: nothing wider than the screen, the shell in place. */
export async function expectPhoneFit(page: Page): Promise<void> {
  await expectShellSettled(page);
  await expectNoSidewaysScroll(page);
}
