/**
 * bench:cli (issue 24): adding 100 small files from a shell, same server, same run, alternating rounds:
 * - CLI: `rhizome add <dir> --no-extract` as its own process (node start-up included), with and without `--wait`;
 * - curl: the same uploads, one `curl -F file=@…` per file, four at a time (as `xargs -P4` would run them),
 *   and for the waiting variant a `curl` of the source list every 250 ms until every upload is indexed.
 * Extraction stays off so both sides wait for the same work (indexing), not for a model.
 * Target: the CLI's median at most 1.2× curl's, with and without waiting.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { runRhizome } from '../../tests/support/cli.ts';
import { startBenchServer } from './api-client.ts';

const files = 100;
const rounds = Number(process.env.BENCH_CLI_ROUNDS ?? 3);
const parallel = 4;
const pollMs = 250;
const run = promisify(execFile);

const bench = await startBenchServer('cli');
const { key } = (await bench.expectOk('POST', '/auth/keys', { name: 'bench' }, 201)) as { key: string };
const auth = `authorization: Bearer ${key}`;

/** A directory of `files` small text files whose content is unique to `label` (no upload is a repeat). */
function smallFiles(label: string): string {
  const dir = path.join(bench.dataDir, 'inputs', label);
  fs.mkdirSync(dir, { recursive: true });
  for (let index = 0; index < files; index++) {
    fs.writeFileSync(
      path.join(dir, `note-${index}.txt`),
      `Note ${index} of ${label}: the river Wend passes mill ${index} before it reaches the estuary.\n`,
    );
  }
  return dir;
}

async function viaCli(dir: string, wait: boolean): Promise<number> {
  const started = performance.now();
  const { code, output } = await runRhizome(
    ['add', dir, '--no-extract', '--json', ...(wait ? ['--wait'] : [])],
    bench.dataDir,
    { RHIZOME_URL: bench.server.url, RHIZOME_API_KEY: key },
    600_000,
  );
  const elapsed = performance.now() - started;
  const added = JSON.parse(output) as { status: string }[];
  if (code !== 0 || added.length !== files) throw new Error(`rhizome add exited ${code}: ${output.slice(0, 500)}`);
  if (wait && added.some((entry) => entry.status !== 'indexed'))
    throw new Error(`rhizome add --wait left sources unindexed: ${output.slice(0, 500)}`);
  return elapsed;
}

async function curlJson(args: string[]): Promise<unknown> {
  const { stdout } = await run('curl', ['-sS', '--fail-with-body', '-H', auth, ...args], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as unknown;
}

async function viaCurl(dir: string, wait: boolean): Promise<number> {
  const started = performance.now();
  const paths = fs.readdirSync(dir).map((name) => path.join(dir, name));
  const ids = new Set<string>();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < paths.length) {
        const file = paths[next++];
        const source = (await curlJson([
          '-F',
          `file=@${file}`,
          '-F',
          'extract_entities=false',
          `${bench.base}/sources`,
        ])) as { id: string };
        ids.add(source.id);
      }
    }),
  );
  while (wait) {
    const page = (await curlJson([`${bench.base}/sources?page_size=${files * rounds * 4}`])) as {
      data: { id: string; status: string }[];
    };
    const mine = page.data.filter((source) => ids.has(source.id));
    if (mine.length === ids.size && mine.every((source) => source.status === 'indexed')) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return performance.now() - started;
}

/** Waits until the server indexes nothing any more, so the next measurement starts on an idle server. */
async function settle(): Promise<void> {
  for (;;) {
    let busy = 0;
    for (const status of ['pending', 'indexing', 'vision_pending']) {
      busy += (
        (await bench.expectOk('GET', `/sources?status=${status}&page_size=1`)) as { pagination: { total: number } }
      ).pagination.total;
    }
    if (!busy) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const timings = {
  cli: { upload: [] as number[], wait: [] as number[] },
  curl: { upload: [] as number[], wait: [] as number[] },
};

for (let round = 0; round < rounds; round++) {
  for (const phase of ['upload', 'wait'] as const) {
    // Alternating which goes first, so neither always meets a server still busy indexing the other's files.
    const order = round % 2 ? (['curl', 'cli'] as const) : (['cli', 'curl'] as const);
    for (const side of order) {
      const dir = smallFiles(`${side}-${phase}-${round}`);
      timings[side][phase].push(
        await (side === 'cli' ? viaCli(dir, phase === 'wait') : viaCurl(dir, phase === 'wait')),
      );
      await settle();
    }
  }
}

console.log(`adding ${files} small text files (--no-extract), ${rounds} rounds each, median wall time:`);
for (const phase of ['upload', 'wait'] as const) {
  const cli = median(timings.cli[phase]);
  const curl = median(timings.curl[phase]);
  const ratio = cli / curl;
  const what = phase === 'wait' ? 'until indexed (--wait)' : 'uploads only          ';
  console.log(
    `  ${what}  rhizome add ${(cli / 1000).toFixed(2)} s   curl ${(curl / 1000).toFixed(2)} s   ratio ${ratio.toFixed(2)}× (target ≤ 1.2×) ${ratio <= 1.2 ? 'OK' : 'OVER'}`,
  );
}
await bench.server.stop();
fs.rmSync(bench.dataDir, { recursive: true, force: true });
