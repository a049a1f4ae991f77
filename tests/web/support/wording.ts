import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const counted = 'sources|passages|chunks|entities|relationships|batches|groups|calls|tokens|attempts|nodes|edges';

/**
 * Fails on words a first-time reader should never see on a screen: a count of one with a plural noun
 * ("1 relationships") and machine names (`awaiting_confirmation`, `works_at`).
 */
export async function expectPlainWording(page: Page, screen: string): Promise<void> {
  const text = await page
    .locator('#main, [role="dialog"]')
    .evaluateAll((elements) => elements.map((element) => (element as HTMLElement).innerText).join('\n'));
  const plural = new RegExp(`(?<![\\d,.])1 (?:[a-z]+ )?(?:${counted})\\b`, 'gi');
  expect(text.match(plural) ?? [], `${screen}: a count of one with a plural noun`).toEqual([]);
  expect(text.match(/\b[a-z]+_[a-z_]+\b/g) ?? [], `${screen}: machine names`).toEqual([]);
}
