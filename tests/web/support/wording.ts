import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const counted = 'sources|passages|chunks|entities|relationships|batches|groups|calls|tokens|attempts|nodes|edges';

/**
 * Fails on words a first-time reader should never see on a screen: a count of one with a plural noun
 * ("1 relationships") and machine names (`awaiting_confirmation`, `works_at`). Text shown as code (a
 * setting's key, a configuration to copy) is meant to be typed as it is and is left out.
 */
export async function expectPlainWording(page: Page, screen: string): Promise<void> {
  const text = await page.locator('#main, [role="dialog"]').evaluateAll((elements) =>
    elements
      .map((element) => {
        let shown = (element as HTMLElement).innerText;
        for (const code of element.querySelectorAll<HTMLElement>('code, pre, kbd, samp'))
          shown = shown.replace(code.innerText, ' ');
        return shown;
      })
      .join('\n'),
  );
  const plural = new RegExp(`(?<![\\d,.])1 (?:[a-z]+ )?(?:${counted})\\b`, 'gi');
  expect(text.match(plural) ?? [], `${screen}: a count of one with a plural noun`).toEqual([]);
  expect(text.match(/\b[a-z]+_[a-z_]+\b/g) ?? [], `${screen}: machine names`).toEqual([]);
}
