import fs from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * A chromium CPU profile (DevTools protocol) of what the page runs during `act`: saved as a .cpuprofile
 * (open it in DevTools' Performance panel) and summarised as the functions with the most self time.
 */
export async function profileDuring(page: Page, name: string, dir: string, act: () => Promise<void>): Promise<string> {
  const session: CDPSession = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  await session.send('Profiler.start');
  await act();
  const { profile } = (await session.send('Profiler.stop')) as unknown as { profile: Profile };
  await session.detach();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  return summarise(profile);
}

function summarise(profile: Profile, top = 12): string {
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const micros = self.get(node.id) ?? 0;
    total += micros;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const where = url ? `${path.basename(url)}:${lineNumber + 1}:${columnNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  const rows = [...byFunction.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return rows
    .map(
      ([key, micros]) =>
        `    ${(micros / 1000).toFixed(0).padStart(6)} ms ${((micros / total) * 100).toFixed(1).padStart(5)}%  ${key}`,
    )
    .join('\n');
}
