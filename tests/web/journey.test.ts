import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  captureScreen,
  dropFiles,
  eventually,
  openBrowser,
  testTimeout,
  viewports,
  type Session,
} from './support/browser.ts';
import { journeyDocuments, sentences } from './support/documents.ts';
import { expectPhoneFit } from './support/shell.ts';
import { expectPlainWording } from './support/wording.ts';

/** The WCAG contrast ratio of two opaque `rgb(r, g, b)` colours. */
function contrast(first: string, second: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => {
      const channel = Number(part) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

/**
 * The journey in a real browser against a real server: first-run setup, three real files
 * dropped, live progress to committed, every search mode, a chat answer whose citation opens the
 * cited sentence, and the export. Each screen is captured at two sizes in light and dark and checked
 * with axe on the way.
 */
describe('web interface: the first-run journey', { timeout: testTimeout }, () => {
  let server: TestServer;
  let session: Session;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer();
    session = await openBrowser(server.url);
    page = session.page;
  }, testTimeout);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
  });

  it('creates the account on first run and lands on the dashboard', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await captureScreen(page, 'setup', expectPhoneFit);
    await page.getByLabel('Username').fill('operator');
    await page.getByLabel(/^Password/).fill('correct horse battery');
    await page.getByLabel('Repeat the password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The first run then offers a model and embeddings; this journey keeps the builtin ones.
    for (let step = 0; step < 2; step++) await page.getByRole('button', { name: 'Skip' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText('Nothing here yet').waitFor();
    await captureScreen(page, 'dashboard-empty', expectPhoneFit);
  });

  it('uploads a PDF, a Word file and Markdown by drag-and-drop and shows them reach committed live', async () => {
    await nav(page, 'Sources').click();
    await page.getByText('No sources yet').waitFor();
    await captureScreen(page, 'sources-empty', expectPhoneFit);
    // An empty file in the drop is refused on its own: the others are added, and the message names it alone.
    const empty = { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) };
    await dropFiles(page, '[data-testid="dropzone"]', [...(await journeyDocuments()), empty]);
    const rows = page.locator('tr[data-source-id]');
    await eventually(() => rows.count()).toBe(3);
    const refused = page.getByRole('alert').filter({ hasText: 'not added' });
    await refused.getByText('1 file was not added').waitFor();
    expect(await refused.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/^empty\.txt: .*empty/),
    ]);
    expect(await refused.innerText()).not.toMatch(/lighthouse|orchard|tide-mill/);
    await captureScreen(page, 'sources-upload-refused', expectPhoneFit);
    await refused.getByRole('button', { name: 'Dismiss' }).click();

    // Sources waiting for their domain to be confirmed are work for the person: the dashboard says so and links to them.
    await eventually(() => page.getByRole('button', { name: /^Confirm domain of/ }).count()).toBe(3);
    await nav(page, 'Dashboard').click();
    const awaiting = page.getByTestId('awaiting-confirmation');
    await awaiting.getByText('3 sources wait for you to confirm the domain before extraction.').waitFor();
    expect(await page.getByText(/^Nothing to do/).count()).toBe(0);
    await captureScreen(page, 'dashboard-awaiting', expectPhoneFit);
    await awaiting.getByRole('link', { name: 'Review them' }).click();
    await page.getByRole('heading', { name: 'Sources' }).waitFor();
    expect(new URL(page.url()).search).toBe('?status=awaiting_confirmation');
    await eventually(() => rows.count()).toBe(3);
    await nav(page, 'Sources').click();
    await eventually(() => page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('');

    // The confirmation gate: each parked source shows its detected domain and ranking before extraction.
    const gate = page.getByRole('dialog');
    for (let confirmed = 0; confirmed < 3; confirmed += 1) {
      const review = page.getByRole('button', { name: /^Confirm domain of/ }).first();
      await review.waitFor();
      await review.click();
      await gate.getByText('(detected)').waitFor();
      if (confirmed === 0) {
        await captureScreen(page, 'sources-confirmation', expectPhoneFit);
        // Each bar shows its domain's own confidence, written beside it, not a share of the best one's.
        const written = await gate.getByTestId('domain-score').allInnerTexts();
        const bars = await gate
          .getByRole('progressbar')
          .evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-valuenow')));
        expect(written.every((score) => /^\d{1,3}%$/.test(score))).toBe(true);
        expect(bars).toEqual(written.map((score) => score.replace('%', '')));
        await expectPlainWording(page, 'sources-confirmation');
      }
      await gate.getByRole('button', { name: 'Confirm and extract' }).click();
      await gate.waitFor({ state: 'hidden' });
    }
    // The rows change without a reload: the events stream carries every step.
    await eventually(() => page.locator('[data-testid="source-status"]', { hasText: 'In the graph' }).count(), {
      interval: 500,
    }).toBe(3);
    await captureScreen(page, 'sources', expectPhoneFit);
    await expectPlainWording(page, 'sources');
    // On a phone a row keeps the title and the status; the other columns are left to the source page.
    await page.setViewportSize(viewports.phone);
    await rows.first().getByTestId('source-status').waitFor();
    expect(await page.getByRole('columnheader', { name: 'Progress' }).count()).toBe(0);
    await page.setViewportSize(viewports.desktop);
  });

  it('opens a source with its passages, entities, extraction and quality', async () => {
    await page.getByRole('link', { name: 'Kestrel Point lighthouse' }).click();
    await page.getByRole('heading', { name: /lighthouse/i }).waitFor();
    await page.getByText('Quality', { exact: true }).waitFor();
    await page.locator('text=/\\d+ \\/ 100|\\/ 100/').first().waitFor();
    // Extracted by the builtin provider: no model, so no model calls or tokens to report.
    await page.getByRole('row', { name: /^Extractor Built-in, pattern-based \(no AI model\): \d+ pass/ }).waitFor();
    expect(await page.getByText('AI model use').count()).toBe(0);
    await captureScreen(page, 'source-detail', expectPhoneFit);
    await expectPlainWording(page, 'source-detail');
    const [original] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Original' }).click(),
    ]);
    expect(
      fs
        .readFileSync(await original.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await page.getByRole('tab', { name: /Passages/ }).click();
    await page
      .getByRole('button', { name: /built in 1871/ })
      .first()
      .click();
    await page
      .getByTestId('passage-viewer')
      .getByText(/built in 1871/)
      .waitFor();
    await page.getByRole('tab', { name: /Entities/ }).click();
    await page.getByRole('heading', { name: /Entities \(\d+\)/ }).waitFor();
    await captureScreen(page, 'source-entities', expectPhoneFit);
    await expectPlainWording(page, 'source-entities');
  });

  it('finds a sentence of each document in every search mode', async () => {
    await nav(page, 'Search').click();
    await page.getByLabel('Compare the four modes').check();
    const queries = [
      ['Kestrel Point lighthouse engineer', sentences.pdf],
      ['Bramblewood orchard heritage apples', sentences.docx],
      ['Woodbridge tide mill wheel', sentences.markdown],
    ] as const;
    for (const [query, sentence] of queries) {
      await page.getByLabel('Search query').fill(query);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      for (const mode of ['keyword', 'semantic', 'hybrid', 'graph']) {
        const column = page.getByTestId(`results-${mode}`);
        await column.waitFor();
        if (mode === 'graph') {
          await eventually(() => column.locator('button').count(), {
            message: `graph mode for ${query}`,
          }).toBeGreaterThan(0);
          continue;
        }
        await eventually(
          async () => (await column.getByTestId('chunk-result').allInnerTexts()).join('\n').replace(/\s+/g, ' '),
          { message: `${mode} for ${query}` },
        ).toContain(sentence.split(' ').slice(1, 5).join(' '));
      }
    }
    await captureScreen(page, 'search', expectPhoneFit);
    const markdownHit = page.getByTestId('results-keyword').getByTestId('chunk-result').first();
    expect(await markdownHit.innerText()).not.toMatch(/#|\*\*/);

    // The passage reads as text, under the name of its document, which opens the source at the passage.
    await markdownHit.click();
    const viewer = page.getByTestId('passage-viewer');
    const origin = viewer.getByRole('link', { name: /^Tide mills/ });
    await origin.waitFor();
    await viewer.getByText(/tide-mill\.md · Passage 1 of 1/).waitFor();
    expect(await viewer.innerText()).not.toMatch(/#|\*\*/);
    const heading = viewer.locator('.passage-heading', { hasText: 'Today' });
    expect(await heading.evaluate((element) => getComputedStyle(element).fontWeight)).toBe('700');
    const passageAddress = (await origin.getAttribute('href')) ?? '';
    expect(passageAddress).toMatch(/^\/sources\/[^/?]+\?chunk=/);
    await page.keyboard.press('Escape');

    // A citation quoting the Markdown still marks its sentence in the rendered passage.
    const quoted = '## Today\n\nThe Woodbridge Tide Mill Trust restored the mill in 1968.';
    await page.goto(`${passageAddress}&highlight=${encodeURIComponent(quoted)}`);
    const cited = page.getByTestId('passage-viewer').getByTestId('cited-sentence');
    await eventually(() => cited.allInnerTexts()).toEqual([
      'Today',
      'The Woodbridge Tide Mill Trust restored the mill in 1968.',
    ]);
  });

  it('answers in a chat with a citation that opens the cited sentence highlighted, and exports the chat', async () => {
    await nav(page, 'Chat').click();
    await page.getByText('No chats yet').waitFor();
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByLabel('Message').fill('When was the Kestrel Point lighthouse built?');
    await page.getByRole('button', { name: 'Send' }).click();
    const chip = page.getByTestId('citation-chip').first();
    await chip.waitFor();
    await captureScreen(page, 'chat');
    await chip.click();
    const cited = page.getByTestId('passage-viewer').getByTestId('cited-sentence');
    await cited.waitFor();
    expect((await cited.innerText()).replace(/\s+/g, ' ')).toContain('built in 1871');
    await captureScreen(page, 'chat-citation', expectPhoneFit);
    await page.keyboard.press('Escape');

    // An entity named in the answer opens its node: properties, connections and the passages citing it.
    await page.getByTestId('entity-chip').first().click();
    const node = page.getByTestId('node-drawer');
    await node.getByText('Cited in').waitFor();
    await node
      .getByRole('button', { name: /lighthouse/i })
      .first()
      .waitFor();
    await captureScreen(page, 'entity');
    await page.keyboard.press('Escape');

    for (const [format, expected] of [
      ['Markdown', /1871/],
      ['JSON', /"messages"/],
    ] as const) {
      await page.getByRole('button', { name: 'Export' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: format }).click(),
      ]);
      expect(fs.readFileSync(await download.path(), 'utf8')).toMatch(expected);
    }
  });

  it('shows the dashboard with counts, lanes, recent sources and the quality summary', async () => {
    await nav(page, 'Dashboard').click();
    await page.getByText('Extraction quality').waitFor();
    await page.getByText(/average/).waitFor();
    await captureScreen(page, 'dashboard', expectPhoneFit);
    await expectPlainWording(page, 'dashboard');

    // The grade reads on the API's one scale: its label, the number written so it never contradicts it, the bands on focus.
    const dashboard = (await (await page.request.get('/api/v1/system/dashboard')).json()) as {
      quality: { avg_quality_grade: number; quality_label: string };
    };
    const band = page.getByTestId('quality-band');
    expect(await page.getByTestId('quality-grade').innerText()).toBe(
      String(Math.floor(dashboard.quality.avg_quality_grade)),
    );
    expect(await band.innerText()).toMatch(new RegExp(`^${dashboard.quality.quality_label}`));
    // Reached with the keyboard (a tooltip opens for keyboard focus, not for a script's or a click's).
    await band.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await band.evaluate((element) => element === document.activeElement)).toBe(true);
    await page
      .getByRole('tooltip')
      .getByText('Outstanding: 85 or more · Excellent: 70 to 84 · Good: 50 to 69 · Fair: 30 to 49 · Low: below 30')
      .waitFor();
    // The builtin provider has no model: the queue says what extracts.
    await page.getByText('Extracting with the built-in extractor').waitFor();
    expect(await page.getByText(/AI model/).count()).toBe(0);

    // A neutral badge ("0 waiting") is the same readable bordered chip in both schemes.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const look = await page
        .locator('.mantine-Badge-root', { hasText: /\d+ waiting/ })
        .first()
        .evaluate((badge) => {
          const style = getComputedStyle(badge);
          return { bg: style.backgroundColor, text: style.color, border: style.borderTopWidth };
        });
      expect(look.border, colorScheme).toBe('1px');
      expect(look.bg, colorScheme).toMatch(/^rgb\(/);
      expect(contrast(look.text, look.bg), colorScheme).toBeGreaterThanOrEqual(4.5);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await page.getByText(/\blanes?\b/i).count()).toBe(0);
  });
});
