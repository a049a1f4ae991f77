/**
 * bench:web (issue 21), in headless chromium (Debian's, CHROMIUM_PATH to override) against the embedded server:
 * 1. first load of `/` to interactive, cold cache: until the sign-in form can be used, and signed in until
 *    the dashboard shows its data (target ≤ 1.5 s);
 * 2. the shell's JavaScript and CSS as served gzip-compressed: the entry script, its preloaded chunks and
 *    the stylesheet (target ≤ 250 KB; the screens are separate chunks loaded on first visit);
 * 3. the sources table holding 5,000 sources, scrolled top to bottom and back for 3 s (target ≥ 50 fps);
 * 4. chat: from the server publishing an answer's first text to that text being on screen (target ≤ 150 ms);
 * 5. the entities list with 100,000 entities: navigation to the first page on screen, by creation and by
 *    degree (target ≤ 300 ms), against the bare GET /nodes of that page; and the page scrolled for 3 s
 *    (target ≥ 50 fps) against the same scrolling of a bare page of as many rows;
 * 6. a bulk delete of 1,000 sources from the sources list: throughput in sources/s, and the longest frame
 *    gap of the page while it runs, against the same page idle;
 * 7. a source of 5,000 chunks: navigation to its page until its details show, and to its first passages,
 *    against the bare GET /sources/{id} (target ≤ 500 ms).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { subscribeChatEvents } from '@rhizome/core/chat';
import { webDistDir } from '@rhizome/cortex-api/web/interface';
import { startBenchServer } from './api-client.ts';
import { uploadSource, waitIndexed } from './ingest-sources.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const loadSamples = 5;
const chatSamples = 10;
const tableRows = 5_000;
const entityRows = 100_000;
const bulkSources = 1_000;
/** Sources the bulk delete's bare baseline deletes one request at a time. */
const bareSources = 200;
const sourceChunks = 5_000;
/** BENCH_WEB_ONLY=scroll (or shell, load, chat, entities, bulk, source) runs one part. */
const only = process.env.BENCH_WEB_ONLY;
const runs = (part: string) => !only || only === part;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const max = (values: number[]) => Math.max(...values);

function shellBytes(): { files: string[]; gzip: number } {
  const html = fs.readFileSync(path.join(webDistDir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
  const gzip = files.reduce(
    (sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(webDistDir, file)), { level: 9 }).length,
    0,
  );
  return { files, gzip };
}

async function firstLoads(
  browser: Browser,
  url: string,
  cookie: string,
): Promise<{ signedOut: number[]; signedIn: number[] }> {
  const signedOut: number[] = [];
  const signedIn: number[] = [];
  for (let sample = 0; sample < loadSamples; sample += 1) {
    for (const withSession of [false, true]) {
      const context = await browser.newContext();
      if (withSession) {
        const [name, ...value] = cookie.split('=');
        await context.addCookies([{ name, value: value.join('='), url }]);
      }
      const page = await context.newPage();
      const started = Date.now();
      await page.goto(url);
      if (withSession) await page.getByText('Extraction quality').waitFor();
      else await page.getByRole('button', { name: 'Sign in' }).waitFor();
      (withSession ? signedIn : signedOut).push(Date.now() - started);
      await context.close();
    }
  }
  return { signedOut, signedIn };
}

/** Copies one real source row until the database holds `count` sources (as many uploads would, without the wait). */
async function fillSources(bench: Awaited<ReturnType<typeof startBenchServer>>, count: number): Promise<void> {
  const form = new FormData();
  form.append('extract_entities', 'false');
  form.append('auto_confirm', 'true');
  form.append(
    'file',
    new Blob(['# Seed\n\nA source copied to fill the table for the scrolling benchmark.']),
    'seed.md',
  );
  const upload = await fetch(`${bench.base}/sources`, {
    method: 'POST',
    headers: { cookie: bench.cookie },
    body: form,
  });
  const seedId = ((await upload.json()) as { id: string }).id;
  const { db } = await bench.server.platform.databases.current();
  for (
    let waited = 0;
    ((await db('sources').where({ id: seedId }).first()) as { status: string }).status !== 'indexed';
    waited += 1
  ) {
    if (waited > 300) throw new Error('the seed source was not indexed');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seed = await db('sources').where({ id: seedId }).first();
  const rows = Array.from({ length: count - 1 }, (_, index) => ({
    ...seed,
    id: `src_bench${String(index).padStart(6, '0')}`,
    title: `Bench source ${index + 1}`,
    filename: `bench-${index + 1}.md`,
    content_hash: `bench-${index}`,
  }));
  await db.batchInsert('sources', rows, 100);
  const started = Date.now();
  const listed = (await bench.expectOk('GET', '/sources?page_size=1000')) as { pagination: { total: number } };
  console.log(`  (${listed.pagination.total} sources; one page of 1,000 listed in ${Date.now() - started} ms)`);
}

async function scrollFps(
  browser: Browser,
  url: string,
  cookie: string,
): Promise<{ fps: number; longFrames: number; frames: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const [name, ...value] = cookie.split('=');
  await context.addCookies([{ name, value: value.join('='), url }]);
  const page = await context.newPage();
  await page.goto(`${url}/sources`);
  await page.getByText(/^5,\d{3} sources$/).waitFor({ timeout: 60_000 });
  // A string, not a function: tsx would wrap a function's inner helpers in a name helper the page lacks.
  const result = await page.evaluate<{ frames: number; longFrames: number; ms: number }>(`new Promise((resolve) => {
    const scroller = document.querySelector('[data-testid="source-scroller"]');
    const durationMs = 3000;
    let direction = 1, frames = 0, longFrames = 0;
    const start = performance.now();
    let last = start;
    function step(now) {
      frames += 1;
      if (now - last > 20) longFrames += 1;
      last = now;
      scroller.scrollTop += direction * 240;
      if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) direction = -1;
      if (scroller.scrollTop <= 0) direction = 1;
      if (now - start < durationMs) requestAnimationFrame(step);
      else resolve({ frames, longFrames, ms: now - start });
    }
    requestAnimationFrame(step);
  })`);
  await context.close();
  return { fps: (result.frames * 1000) / result.ms, longFrames: result.longFrames, frames: result.frames };
}

async function chatFirstText(
  browser: Browser,
  bench: Awaited<ReturnType<typeof startBenchServer>>,
  url: string,
): Promise<number[]> {
  const form = new FormData();
  form.append('extract_entities', 'false');
  form.append('auto_confirm', 'true');
  form.append(
    'file',
    new Blob([
      'The Kestrel Point lighthouse was built in 1871 by the engineer Miriam Holloway. Its lamp was converted to electricity in 1932.',
    ]),
    'lighthouse.txt',
  );
  await fetch(`${bench.base}/sources`, { method: 'POST', headers: { cookie: bench.cookie }, body: form });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const [name, ...value] = bench.cookie.split('=');
  await context.addCookies([{ name, value: value.join('='), url }]);
  const page = await context.newPage();
  const latencies: number[] = [];
  for (let sample = 0; sample < chatSamples; sample += 1) {
    const chat = (await bench.expectOk('POST', '/chats', { title: `bench ${sample}` }, 201)) as { id: string };
    let publishedAt = 0;
    const unsubscribe = await subscribeChatEvents(bench.server.platform.pubsub, chat.id, (event) => {
      if (!publishedAt && (event.type === 'content' || event.type === 'done')) publishedAt = Date.now();
    });
    await page.goto(`${url}/chat/${chat.id}`);
    await page.getByLabel('Message').waitFor();
    // Wall-clock time in the page when the answer's first text is in the DOM.
    const seen = page.evaluate<number>(`new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        const answer = document.querySelector('[data-testid="streaming-answer"] .answer, [data-role="assistant"] .answer');
        if (!answer || !answer.textContent.trim()) return;
        observer.disconnect();
        resolve(performance.timeOrigin + performance.now());
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    })`);
    await page.getByLabel('Message').fill('When was the Kestrel Point lighthouse built?');
    await page.keyboard.press('Enter');
    const shownAt = await seen;
    await unsubscribe();
    latencies.push(shownAt - publishedAt);
    await page.getByRole('button', { name: 'Regenerate' }).waitFor();
  }
  await context.close();
  return latencies;
}

const signedInPage = async (browser: Browser, url: string, cookie: string) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const [name, ...value] = cookie.split('=');
  await context.addCookies([{ name, value: value.join('='), url }]);
  return { context, page: await context.newPage() };
};

/** Copies one real node until the database holds `count` entities, with degrees spread for the sorted list. */
async function fillEntities(bench: Awaited<ReturnType<typeof startBenchServer>>, count: number): Promise<void> {
  const seed = (await bench.expectOk(
    'POST',
    '/nodes',
    { template_id: 'system_template_item', label: 'Seed entity', properties: { definition: 'A seed' } },
    201,
  )) as { id: string };
  const { db } = await bench.server.platform.databases.current();
  const row = await db('graph_nodes').where({ id: seed.id }).first();
  const rows = Array.from({ length: count - 1 }, (_, index) => ({
    ...row,
    id: `node_bench${String(index).padStart(6, '0')}`,
    label: `Bench entity ${index + 1}`,
    name_key: `bench entity ${index + 1}`,
    degree: index % 97,
    properties: JSON.stringify({ definition: 'A seed', confidence: (index % 100) / 100 }),
  }));
  await db.batchInsert('graph_nodes', rows, 500);
}

/** Navigation to the entities list until its first page is on screen, against the bare API call for that page. */
async function entityFirstPages(browser: Browser, bench: Awaited<ReturnType<typeof startBenchServer>>, url: string) {
  const { context, page } = await signedInPage(browser, url, bench.cookie);
  await page.goto(`${url}/`);
  await page.getByText('Extraction quality').waitFor({ timeout: 60_000 });
  const measured: { order: string; screen: number[]; api: number[] }[] = [];
  for (const [order, query] of [
    ['creation', ''],
    ['degree', 'sort_by=degree'],
    ['confidence', 'sort_by=confidence'],
  ] as const) {
    const screen: number[] = [];
    const api: number[] = [];
    for (let sample = 0; sample < loadSamples; sample += 1) {
      const started = Date.now();
      await bench.expectOk('GET', `/nodes?page_size=50&include_stats=true&${query}`);
      api.push(Date.now() - started);
      // Through the app's own navigation, as a click in the menu: the shell is loaded already.
      await page.evaluate(`window.history.pushState({}, '', '/'); dispatchEvent(new PopStateEvent('popstate'))`);
      const shown = Date.now();
      await page.evaluate(
        `window.history.pushState({}, '', '/entities?${query}&b=${sample}'); dispatchEvent(new PopStateEvent('popstate'))`,
      );
      await page.getByText('100,000 entities').waitFor({ timeout: 60_000 });
      await page.getByRole('table', { name: 'Entities' }).getByRole('link').first().waitFor();
      screen.push(Date.now() - shown);
    }
    measured.push({ order, screen, api });
  }
  await context.close();
  return measured;
}

/** Frames per second of scrolling the window up and down for 3 s (a string: see scrollFps). */
const windowScroll = `new Promise((resolve) => {
  let direction = 1, frames = 0;
  const start = performance.now();
  function step(now) {
    frames += 1;
    window.scrollBy(0, direction * 120);
    if (window.innerHeight + window.scrollY >= document.body.scrollHeight - 1) direction = -1;
    if (window.scrollY <= 0) direction = 1;
    if (now - start < 3000) requestAnimationFrame(step);
    else resolve((frames * 1000) / (now - start));
  }
  requestAnimationFrame(step);
})`;

async function entityScroll(browser: Browser, url: string, cookie: string) {
  const { context, page } = await signedInPage(browser, url, cookie);
  await page.goto(`${url}/entities?sort_by=degree`);
  await page.getByText('100,000 entities').waitFor({ timeout: 60_000 });
  const list = await page.evaluate<number>(windowScroll);
  const rows = Array.from({ length: 50 }, (_, index) => `<tr><td>Bench entity ${index}</td><td>Item</td></tr>`);
  await page.setContent(`<table>${rows.join('')}</table><div style="height:1200px"></div>`);
  const bare = await page.evaluate<number>(windowScroll);
  await context.close();
  return { list, bare };
}

/** The longest gap between frames over `ms` (a string: see scrollFps). */
const frameGap = (ms: number) => `new Promise((resolve) => {
  let longest = 0, last = performance.now();
  const start = last;
  function step(now) {
    longest = Math.max(longest, now - last);
    last = now;
    if (now - start < ${ms}) requestAnimationFrame(step);
    else resolve(longest);
  }
  requestAnimationFrame(step);
})`;

/** Deletes `count` sources through the list's bulk action, measuring the page's frame gaps while it runs. */
async function bulkDelete(
  browser: Browser,
  bench: Awaited<ReturnType<typeof startBenchServer>>,
  url: string,
  count: number,
) {
  const { context, page } = await signedInPage(browser, url, bench.cookie);
  await page.goto(`${url}/sources`);
  await page
    .getByText(/sources$/)
    .first()
    .waitFor({ timeout: 60_000 });
  await page.getByRole('checkbox', { name: 'Select every source on this page' }).waitFor({ timeout: 60_000 });
  const idleGap = await page.evaluate<number>(frameGap(2000));
  await page.getByRole('checkbox', { name: 'Select every source on this page' }).check();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const started = Date.now();
  await page
    .getByRole('dialog', { name: /^Delete/ })
    .getByRole('button', { name: 'Delete' })
    .click();
  const gaps: number[] = [];
  const summary = page.getByTestId('bulk-job-summary');
  const busyList = sampleWhile(
    () => summary.isVisible(),
    () => listLatency(bench),
  );
  while (!(await summary.isVisible())) gaps.push(await page.evaluate<number>(frameGap(500)));
  const seconds = (Date.now() - started) / 1000;
  const text = await summary.textContent();
  await context.close();
  return {
    seconds,
    perSecond: count / seconds,
    busyGap: Math.max(...gaps, 0),
    idleGap,
    busyList: median(await busyList),
    text,
  };
}

/** How long one page of 50 sources takes the API to answer, in ms. */
async function listLatency(bench: Awaited<ReturnType<typeof startBenchServer>>): Promise<number> {
  const started = performance.now();
  await bench.expectOk('GET', '/sources?page_size=50');
  return performance.now() - started;
}

/** `sample()` over and over, 200 ms apart, until `done()`; every figure it gave. */
async function sampleWhile(done: () => Promise<boolean>, sample: () => Promise<number>): Promise<number[]> {
  const figures: number[] = [];
  while (!(await done())) {
    figures.push(await sample());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return figures;
}

/**
 * The bare baseline of a bulk delete: `ids` deleted one request after another (DELETE /sources/{id}),
 * with the list's latency measured before, idle.
 */
async function bareDeletes(bench: Awaited<ReturnType<typeof startBenchServer>>, ids: string[]) {
  const idle: number[] = [];
  for (let sample = 0; sample < 10; sample++) idle.push(await listLatency(bench));
  const started = Date.now();
  for (const id of ids) await bench.expectOk('DELETE', `/sources/${id}`, undefined, 204);
  return { perSecond: ids.length / ((Date.now() - started) / 1000), idleList: median(idle) };
}

/** A text of `count` paragraphs of about 750 characters each: one chunk a paragraph. */
function manyParagraphs(count: number): string {
  const words = 'the river passes the mill before it reaches the estuary where the tide turns twice a day';
  const paragraph = (index: number) => `Bench passage ${index + 1}. ${`${words} `.repeat(8).trim()}.`;
  return Array.from({ length: count }, (_, index) => paragraph(index)).join('\n\n');
}

/** Navigation to a source's page until its details show, then to its passages, against the bare API read. */
async function sourcePageOpens(browser: Browser, bench: Awaited<ReturnType<typeof startBenchServer>>, url: string) {
  const id = await uploadSource(bench, 'long-source.txt', new Blob([manyParagraphs(sourceChunks)]));
  const { chunk_count: chunks } = await waitIndexed(bench, id);
  const { context, page } = await signedInPage(browser, url, bench.cookie);
  await page.goto(`${url}/`);
  await page.getByText('Extraction quality').waitFor({ timeout: 60_000 });
  const details: number[] = [];
  const passages: number[] = [];
  const api: number[] = [];
  for (let sample = 0; sample < loadSamples; sample += 1) {
    const started = Date.now();
    await bench.expectOk('GET', `/sources/${id}`);
    api.push(Date.now() - started);
    await page.evaluate(`window.history.pushState({}, '', '/'); dispatchEvent(new PopStateEvent('popstate'))`);
    const shown = Date.now();
    await page.evaluate(
      `window.history.pushState({}, '', '/sources/${id}?b=${sample}'); dispatchEvent(new PopStateEvent('popstate'))`,
    );
    await page.getByRole('tab', { name: `Passages (${chunks})` }).waitFor({ timeout: 60_000 });
    details.push(Date.now() - shown);
    const opened = Date.now();
    await page.getByRole('tab', { name: /^Passages/ }).click();
    await page.getByText('Bench passage 1.', { exact: false }).first().waitFor({ timeout: 60_000 });
    passages.push(Date.now() - opened);
  }
  await context.close();
  return { chunks, details, passages, api };
}

const bench = await startBenchServer('web');
const url = bench.server.url;
const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
try {
  const shell = shellBytes();
  if (runs('shell'))
    console.log(`shell (${shell.files.join(', ')}): ${(shell.gzip / 1024).toFixed(1)} KB gzip   (target ≤ 250 KB)`);

  if (runs('load')) {
    const loads = await firstLoads(browser, url, bench.cookie);
    console.log(`first load of / to interactive, cold cache (${loadSamples} loads each):`);
    console.log(
      `  sign-in form usable: median ${median(loads.signedOut)} ms, max ${max(loads.signedOut)} ms   (target ≤ 1500 ms)`,
    );
    console.log(`  signed in, dashboard with data: median ${median(loads.signedIn)} ms, max ${max(loads.signedIn)} ms`);
  }
  if (runs('chat')) {
    const chat = await chatFirstText(browser, bench, url);
    console.log(`chat, server publishes the first answer text → on screen (${chatSamples} turns, builtin provider):`);
    console.log(`  median ${median(chat).toFixed(0)} ms, max ${max(chat).toFixed(0)} ms   (target ≤ 150 ms)`);
  }
  if (runs('scroll')) {
    await fillSources(bench, tableRows);
    const scroll = await scrollFps(browser, url, bench.cookie);
    console.log(
      `sources table with ${tableRows.toLocaleString('en-US')} sources, 3 s of continuous scrolling: ${scroll.fps.toFixed(1)} fps, ${scroll.longFrames} of ${scroll.frames} frames over 20 ms   (target ≥ 50 fps)`,
    );
  }
  if (runs('entities')) {
    await fillEntities(bench, entityRows);
    console.log(
      `entities list with ${entityRows.toLocaleString('en-US')} entities, navigation to the first page on screen (${loadSamples} each):`,
    );
    for (const { order, screen, api } of await entityFirstPages(browser, bench, url))
      console.log(
        `  by ${order}: median ${median(screen)} ms, max ${max(screen)} ms; bare GET /nodes median ${median(api)} ms (${(median(screen) / Math.max(1, median(api))).toFixed(1)}×)   (target ≤ 300 ms)`,
      );
    const scrolled = await entityScroll(browser, url, bench.cookie);
    console.log(
      `  3 s of scrolling the first page: ${scrolled.list.toFixed(1)} fps; a bare page of 50 rows ${scrolled.bare.toFixed(1)} fps (${(scrolled.list / scrolled.bare).toFixed(2)}×)   (target ≥ 50 fps)`,
    );
  }
  if (runs('bulk')) {
    const { db } = await bench.server.platform.databases.current();
    await db('sources').delete();
    await fillSources(bench, bulkSources + bareSources);
    const bareIds = Array.from({ length: bareSources }, (_, index) => `src_bench${String(index).padStart(6, '0')}`);
    const bare = await bareDeletes(bench, bareIds);
    const deleted = await bulkDelete(browser, bench, url, bulkSources);
    console.log(
      `bulk delete of ${bulkSources.toLocaleString('en-US')} sources from the list, one server task: ${deleted.seconds.toFixed(1)} s, ${deleted.perSecond.toFixed(0)} sources/s (${deleted.text}); bare DELETE /sources/{id} one after another (${bareSources}) ${bare.perSecond.toFixed(0)} sources/s (${(deleted.perSecond / bare.perSecond).toFixed(2)}×)`,
    );
    console.log(
      `  longest frame gap while it runs ${deleted.busyGap.toFixed(0)} ms; idle ${deleted.idleGap.toFixed(0)} ms (${(deleted.busyGap / Math.max(1, deleted.idleGap)).toFixed(1)}×)`,
    );
    console.log(
      `  GET /sources (50) while it runs: median ${deleted.busyList.toFixed(0)} ms; idle ${bare.idleList.toFixed(0)} ms (${(deleted.busyList / Math.max(1, bare.idleList)).toFixed(1)}×)`,
    );
  }
  if (runs('source')) {
    const opened = await sourcePageOpens(browser, bench, url);
    const bare = Math.max(1, median(opened.api));
    console.log(
      `a source of ${opened.chunks.toLocaleString('en-US')} chunks, navigation to its page (${loadSamples} each):`,
    );
    console.log(
      `  details on screen: median ${median(opened.details)} ms, max ${max(opened.details)} ms; bare GET /sources/{id} median ${median(opened.api)} ms (${(median(opened.details) / bare).toFixed(1)}×)   (target ≤ 500 ms)`,
    );
    console.log(
      `  its Passages tab to the first passage: median ${median(opened.passages)} ms, max ${max(opened.passages)} ms`,
    );
  }
} finally {
  await browser.close();
  await bench.server.stop();
}
