/**
 * bench:web (issue 21), in headless chromium (Debian's, CHROMIUM_PATH to override) against the embedded server:
 * 1. first load of `/` to interactive, cold cache: until the sign-in form can be used, and signed in until
 *    the dashboard shows its data (target ≤ 1.5 s);
 * 2. the shell's JavaScript and CSS as served gzip-compressed: the entry script, its preloaded chunks and
 *    the stylesheet (target ≤ 250 KB; the screens are separate chunks loaded on first visit);
 * 3. the sources table holding 5,000 sources, scrolled top to bottom and back for 3 s (target ≥ 50 fps);
 * 4. chat: from the server publishing an answer's first text to that text being on screen (target ≤ 150 ms).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { subscribeChatEvents } from '@rhizome/core/chat';
import { webDistDir } from '@rhizome/cortex-api/web/interface';
import { startBenchServer } from './api-client.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const loadSamples = 5;
const chatSamples = 10;
const tableRows = 5_000;
/** BENCH_WEB_ONLY=scroll (or shell, load, chat) runs one part. */
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
} finally {
  await browser.close();
  await bench.server.stop();
}
