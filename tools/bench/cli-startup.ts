/**
 * bench:cli-startup: how long a `rhizome` process takes to start and answer `--version`, the floor of
 * every command a script runs. The prebuilt command line (packages/cli/dist) against the same command
 * from its TypeScript sources through tsx, with a bare `node -e ''` as the baseline; alternating rounds,
 * wall and CPU time per process (CPU is the figure that load on the machine barely moves).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { prebuiltEntry } from '../../packages/cli/bin/prebuilt.mjs';
import { repoDir } from './harness.ts';

const rounds = Number(process.env.BENCH_CLI_STARTUP_ROUNDS ?? 15);
const cliDir = path.join(repoDir, 'packages/cli');
if (!prebuiltEntry(path.join(cliDir, 'dist')))
  throw new Error('the prebuilt command line is stale: run pnpm build:cli');

const variants: [string, string[]][] = [
  ['bare node', ['-e', '']],
  ['rhizome, prebuilt', [path.join(cliDir, 'bin/rhizome.mjs'), '--version']],
  [
    'rhizome, from source',
    [
      '--import',
      'tsx',
      '-e',
      `import(${JSON.stringify(path.join(cliDir, 'src/main.ts'))}).then((m) => m.runCli(['--version']))`,
    ],
  ],
];

/** CPU milliseconds of every child waited for so far (cutime + cstime of /proc/self/stat, at 100 ticks a second). */
function childrenCpuMs(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

function once(args: string[]): { wallMs: number; cpuMs: number } {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: repoDir, encoding: 'utf8' });
  const wallMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { wallMs, cpuMs: childrenCpuMs() - cpuBefore };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const samples = new Map(variants.map(([label]) => [label, [] as { wallMs: number; cpuMs: number }[]]));
for (let round = 0; round < rounds; round++) for (const [label, args] of variants) samples.get(label)!.push(once(args));

const bare = samples.get('bare node')!;
const bareWall = median(bare.map((sample) => sample.wallMs));
const bareCpu = median(bare.map((sample) => sample.cpuMs));
console.log(`rhizome --version start-up, median of ${rounds} alternating rounds`);
for (const [label, runs] of samples) {
  const wall = median(runs.map((sample) => sample.wallMs));
  const cpu = median(runs.map((sample) => sample.cpuMs));
  console.log(
    `${label.padEnd(22)} wall ${wall.toFixed(0).padStart(5)} ms (×${(wall / bareWall).toFixed(1)} bare)` +
      `   cpu ${cpu.toFixed(0).padStart(5)} ms (×${(cpu / Math.max(bareCpu, 10)).toFixed(1)} bare)`,
  );
}
