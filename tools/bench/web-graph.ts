/**
 * bench:web-graph (issue 22), in headless chromium (Debian's, CHROMIUM_PATH to override) against the embedded
 * server, with a canvas of 5,000 nodes and 15,000 edges (the canvas caps) seeded straight into the database:
 * 1. first frame after the canvas data arrived (target ≤ 1.5 s), beside the bare fetch of the same data;
 * 2. the ForceAtlas2 layout (in a worker) until it settles, and the input latency meanwhile: pointer events'
 *    delay from the event to its handler, and the main thread's longest task;
 * 3. pan and zoom (target ≥ 30 fps), beside an empty page's frame rate in the same browser;
 * 4. the second visit, from the positions the first saved (no layout);
 * 5. the entity panel: from the click on "Open details" to its details on screen (target ≤ 200 ms).
 * Ratios are against the baselines measured in the same run.
 * WebGL runs on the CPU here: BENCH_GL=llvmpipe (the default, the faster) or swiftshader picks the back end,
 * and the renderer string is printed. BENCH_PROFILE=<dir> saves a CPU profile of each part there and prints
 * the functions with the most self time.
 */
import { chromium, type Page } from 'playwright-core';
import { startBenchServer } from './api-client.ts';
import { glBackendFrom, glBackends, webglRenderer } from './browser-gl.ts';
import { profileDuring } from './cpu-profile.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const gl = glBackendFrom(process.env.BENCH_GL);
const profileDir = process.env.BENCH_PROFILE;
const nodeCount = 5_000;
const edgeCount = 15_000;

async function seed(bench: Awaited<ReturnType<typeof startBenchServer>>): Promise<void> {
  const { db } = await bench.server.platform.databases.current();
  const now = new Date().toISOString();
  const templates = ['system_template_person', 'system_template_place', 'system_template_item'];
  const present = new Set(
    ((await db('graph_templates').whereIn('id', templates).select('id')) as { id: string }[]).map((row) => row.id),
  );
  const usable = templates.filter((id) => present.has(id));
  const nodes = Array.from({ length: nodeCount }, (_, index) => ({
    id: `node_bench${String(index).padStart(5, '0')}`,
    template_id: usable[index % usable.length],
    label: `Entity ${index + 1}`,
    properties: '{}',
    created_at: now,
    updated_at: now,
  }));
  await db.batchInsert('graph_nodes', nodes, 100);
  // A scale-free-ish graph: each edge joins a random node to one picked with a bias to early (hub) nodes.
  let state = 42;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const edges = Array.from({ length: edgeCount }, (_, index) => {
    const source = Math.floor(random() * nodeCount);
    let target = Math.floor(random() ** 2.5 * nodeCount);
    if (target === source) target = (source + 1) % nodeCount;
    return {
      id: `edge_bench${String(index).padStart(5, '0')}`,
      template_id: 'system_template_link',
      source_node_id: nodes[source].id,
      target_node_id: nodes[target].id,
      label: 'related_to',
      properties: '{}',
      created_at: now,
      updated_at: now,
    };
  });
  await db.batchInsert('graph_edges', edges, 100);
}

/** Frames per second while `act` runs (requestAnimationFrame counted in the page). */
async function framesDuring(page: Page, act: () => Promise<void>): Promise<number> {
  await page.evaluate(
    `(() => { window.__frames = 0; window.__counting = true; const tick = () => { if (!window.__counting) return; window.__frames += 1; requestAnimationFrame(tick); }; requestAnimationFrame(tick); window.__started = performance.now(); })()`,
  );
  await act();
  const { frames, ms } = await page.evaluate<{ frames: number; ms: number }>(
    `(() => { window.__counting = false; return { frames: window.__frames, ms: performance.now() - window.__started }; })()`,
  );
  return (frames * 1000) / ms;
}

/** Runs `act`, under the CPU profiler when BENCH_PROFILE is set (the summary printed after the part's figures). */
async function part(page: Page, name: string, act: () => Promise<void>): Promise<() => void> {
  if (!profileDir) {
    await act();
    return () => undefined;
  }
  const summary = await profileDuring(page, name, profileDir, act);
  return () => console.log(`  ${name}, most self time:\n${summary}`);
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const ratio = (value: number, baseline: number) => `${(value / baseline).toFixed(2)}×`;

const bench = await startBenchServer('web-graph');
const url = bench.server.url;
const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage', ...glBackends[gl]],
});
try {
  const seeded = Date.now();
  await seed(bench);
  console.log(
    `seeded ${nodeCount.toLocaleString('en-US')} nodes and ${edgeCount.toLocaleString('en-US')} edges in ${Date.now() - seeded} ms`,
  );

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const [name, ...value] = bench.cookie.split('=');
  await context.addCookies([{ name, value: value.join('='), url }]);
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);

  // Baselines: an empty page's frame rate, and the bare fetch and parse of the canvas data.
  await page.goto(`${url}/api/v1/health`);
  console.log(`WebGL (${gl}): ${await webglRenderer(page)}`);
  const idleFps = await framesDuring(page, () => page.waitForTimeout(2_000));
  const fetchMs = await page.evaluate<number>(
    `(async () => { const start = performance.now(); const data = await (await fetch('/api/v1/graph/canvas')).json(); if (data.nodes.length !== ${nodeCount}) throw new Error('canvas has ' + data.nodes.length + ' nodes'); return performance.now() - start; })()`,
  );

  const firstVisit = await part(page, 'first-visit', async () => {
    await page.goto(`${url}/graph`);
    await page.waitForFunction(`performance.getEntriesByName('graph:first-frame').length > 0`);
  });
  const firstFrame = await page.evaluate<number>(
    `performance.getEntriesByName('graph:first-frame')[0].startTime - performance.getEntriesByName('graph:data')[0].startTime`,
  );
  console.log(
    `first frame after the data arrived: ${firstFrame.toFixed(0)} ms   (target ≤ 1500 ms; ${ratio(firstFrame, fetchMs)} the bare fetch of the canvas data, ${fetchMs.toFixed(0)} ms)`,
  );
  firstVisit();

  // Input latency while the layout runs in its worker: pointer moves over the canvas, and long tasks.
  await page.evaluate(`(() => {
    window.__delays = []; window.__longest = 0;
    window.addEventListener('pointermove', (event) => window.__delays.push(performance.now() - event.timeStamp), { capture: true });
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration); }).observe({ type: 'longtask' });
  })()`);
  const layoutStart = Date.now();
  const box = (await page.getByTestId('graph-canvas').boundingBox())!;
  let layoutFps = 0;
  const layoutPart = await part(page, 'layout', async () => {
    layoutFps = await framesDuring(page, async () => {
      for (
        let step = 0;
        step < 40 && !(await page.getByRole('button', { name: 'Arrange again' }).isVisible());
        step += 1
      ) {
        await page.mouse.move(box.x + 50 + (step % 10) * 30, box.y + 100 + (step % 7) * 20);
        await page.waitForTimeout(100);
      }
    });
  });
  const delays = await page.evaluate<number[]>('window.__delays');
  if (!delays.length) delays.push(Number.NaN);
  await page.getByRole('button', { name: 'Arrange again' }).waitFor();
  const layoutMs = Date.now() - layoutStart;
  const longest = await page.evaluate<number>('window.__longest');
  console.log(
    `layout (ForceAtlas2 in a worker) settled and saved in ${layoutMs} ms; meanwhile: pointer event delay p50 ${percentile(delays, 0.5).toFixed(1)} ms, p95 ${percentile(delays, 0.95).toFixed(1)} ms (${delays.length} events), longest main-thread task ${longest.toFixed(0)} ms, ${layoutFps.toFixed(1)} fps (${ratio(layoutFps, idleFps)} the empty page's ${idleFps.toFixed(1)} fps)`,
  );
  layoutPart();

  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  let panFps = 0;
  let zoomFps = 0;
  const panPart = await part(page, 'pan', async () => {
    panFps = await framesDuring(page, async () => {
      await page.mouse.move(centre.x, centre.y);
      await page.mouse.down();
      for (let step = 0; step < 60; step += 1)
        await page.mouse.move(centre.x + Math.sin(step / 6) * 200, centre.y + Math.cos(step / 6) * 120);
      await page.mouse.up();
    });
  });
  const zoomPart = await part(page, 'zoom', async () => {
    zoomFps = await framesDuring(page, async () => {
      for (let step = 0; step < 30; step += 1) {
        await page.mouse.move(centre.x, centre.y);
        await page.mouse.wheel(0, step < 15 ? -120 : 120);
        await page.waitForTimeout(40);
      }
    });
  });
  console.log(
    `pan: ${panFps.toFixed(1)} fps, zoom: ${zoomFps.toFixed(1)} fps   (target ≥ 30 fps; ${ratio(panFps, idleFps)} and ${ratio(zoomFps, idleFps)} the empty page)`,
  );
  panPart();
  zoomPart();

  const secondVisit = await part(page, 'second-visit', async () => {
    await page.reload();
    await page.waitForFunction(`performance.getEntriesByName('graph:first-frame').length > 0`);
  });
  const secondFrame = await page.evaluate<number>(
    `performance.getEntriesByName('graph:first-frame')[0].startTime - performance.getEntriesByName('graph:data')[0].startTime`,
  );
  const arranging = await page.getByText('Arranging…').isVisible();
  console.log(
    `second visit: first frame ${secondFrame.toFixed(0)} ms after the data, ${arranging ? 'laid out again (positions were not kept)' : 'from the saved positions, no layout'}`,
  );
  secondVisit();

  const panel: number[] = [];
  for (let sample = 0; sample < 5; sample += 1) {
    await page.goto(`${url}/graph?node=node_bench${String(sample * 7).padStart(5, '0')}`);
    await page.getByRole('button', { name: 'Open details' }).waitFor();
    panel.push(
      await page.evaluate<number>(`new Promise((resolve) => {
      const start = performance.now();
      const button = [...document.querySelectorAll('button')].find((each) => each.textContent === 'Open details');
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-testid="node-details"]')) { observer.disconnect(); resolve(performance.now() - start); }
      });
      observer.observe(document.body, { childList: true, subtree: true });
      button.click();
    })`),
    );
  }
  console.log(
    `entity panel, click → details on screen: median ${percentile(panel, 0.5).toFixed(0)} ms, max ${Math.max(...panel).toFixed(0)} ms   (target ≤ 200 ms; ${ratio(percentile(panel, 0.5), fetchMs)} the canvas fetch)`,
  );
  await context.close();
} finally {
  await browser.close();
  await bench.server.stop();
}
