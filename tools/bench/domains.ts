// Benchmark: domain detection on a 10,000-character upload across every builtin domain (target: well under
// 10 ms, CPU time). The bare baseline is the least any detector does: one lower-casing and word split of the
// same samples. Text: the labelled detection fixtures joined, repeated and cut to 10,000 characters.
import fs from 'node:fs';
import path from 'node:path';
import { builtinDomains, detectDomain, detectionSamples } from '@rhizome/core/sources';
import { cpuMs, repoDir } from './harness.ts';

const runs = Number(process.env.BENCH_RUNS ?? 200);
const fixture = path.join(repoDir, 'packages/core/test/fixtures/domains/labelled.json');
const { documents } = JSON.parse(fs.readFileSync(fixture, 'utf8')) as { documents: { text: string }[] };
const text = documents
  .map((document) => document.text)
  .join('\n\n')
  .repeat(3)
  .slice(0, 10_000);
const domains = builtinDomains();
const samples = detectionSamples(text);

/** CPU milliseconds per call of `work`, after one warm-up call (regexes compiled, code optimised). */
function cpuPerCall(work: () => unknown): number {
  work();
  const started = process.cpuUsage();
  for (let index = 0; index < runs; index += 1) work();
  return cpuMs(process.cpuUsage(started)) / runs;
}

const baseline = cpuPerCall(() => samples.map((sample) => sample.toLowerCase().split(/\W+/)));
const detection = cpuPerCall(() => detectDomain({ samples: detectionSamples(text), filename: 'a.txt' }, domains));

console.log(`domain detection, ${text.length} characters over ${domains.length} domains, ${runs} runs`);
console.log(`  bare word split (baseline): ${baseline.toFixed(3)} ms CPU`);
console.log(`  detection:                  ${detection.toFixed(3)} ms CPU (×${(detection / baseline).toFixed(1)})`);
console.log(`  target < 10 ms: ${detection < 10 ? 'met' : 'missed'}`);
