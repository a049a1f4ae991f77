// Precision and recall of the builtin extractor on the hand-labelled sets
// (packages/core/test/fixtures/extraction/*-passages.json): entities by name, entities by name and
// kind, typed relations, the share of `related_to` among the relations, of fallback-typed entities and
// of junk names — per set, then per split and per kind of text — and the CPU time the harvest took.
//
//   pnpm eval:extraction                          every set, every split
//   pnpm eval:extraction --split development      one split only (tune on this one)
//   pnpm eval:extraction --set technical-passages one set only
//   pnpm eval:extraction --misses                 also, per passage, what was extracted wrongly and what was missed
//   pnpm eval:extraction --corpus 2wiki [--limit N]
//       the builtin harvest over the retrieval kit's passages (each in its detected domain): the
//       related_to share and the histogram of relation types (N passages spread evenly over the kit)
import { parseArgs } from 'node:util';
import { builtinDomains, detectDomain } from '@rhizome/core/sources';
import {
  builtinHarvester,
  labelledSetNames,
  loadLabelledSet,
  scorePassages,
  summarise,
  type ExtractionScore,
  type PassageResult,
  type PrecisionRecall,
} from '../../packages/core/test/fixtures/extraction/score.ts';
import { loadKit, passageText } from './kit.ts';

const { values: options } = parseArgs({
  options: {
    misses: { type: 'boolean' },
    split: { type: 'string' },
    set: { type: 'string' },
    corpus: { type: 'string' },
    limit: { type: 'string' },
  },
});

const row = (label: string, figures: PrecisionRecall) =>
  `  ${label.padEnd(22)} P ${figures.precision.toFixed(3)}  R ${figures.recall.toFixed(3)}  F1 ${figures.f1.toFixed(3)}`;

function printScore(title: string, score: ExtractionScore): void {
  console.log(`\n${title} (${score.passages} passages)`);
  console.log(row('entities (name)', score.entities));
  console.log(row('entities (name+kind)', score.typedEntities));
  console.log(row('relations (typed)', score.relations));
  console.log(`  related_to share       ${score.relatedToShare.toFixed(3)}`);
  console.log(`  fallback-typed share   ${score.fallbackTypeShare.toFixed(3)}`);
  console.log(
    `  junk share             ${score.junkShare.toFixed(3)}${score.junk.length ? `  (${score.junk.join(' | ')})` : ''}`,
  );
}

function printMisses(score: ExtractionScore): void {
  for (const miss of score.misses) {
    if (!miss.spurious.length && !miss.missed.length && !miss.spuriousRelations.length && !miss.missedRelations.length)
      continue;
    console.log(`\n${miss.id}`);
    if (miss.spurious.length) console.log(`  spurious: ${miss.spurious.join(' | ')}`);
    if (miss.missed.length) console.log(`  missed:   ${miss.missed.join(' | ')}`);
    if (miss.spuriousRelations.length) console.log(`  spurious relations: ${miss.spuriousRelations.join(' | ')}`);
    if (miss.missedRelations.length) console.log(`  missed relations:   ${miss.missedRelations.join(' | ')}`);
  }
}

function groupBy(
  results: readonly PassageResult[],
  key: (result: PassageResult) => string,
): Map<string, PassageResult[]> {
  const groups = new Map<string, PassageResult[]>();
  for (const result of results) groups.set(key(result), [...(groups.get(key(result)) ?? []), result]);
  return groups;
}

async function scoreSets(): Promise<void> {
  if (options.split && options.split !== 'development' && options.split !== 'held-back')
    throw new Error(`--split is development or held-back, not ${options.split}`);
  const names = options.set ? [options.set.replace(/\.json$/, '')] : labelledSetNames();
  for (const name of names) {
    const set = loadLabelledSet(name);
    const passages = set.passages.filter((passage) => !options.split || passage.split === options.split);
    const cpu = process.cpuUsage();
    const results = await scorePassages(set, passages);
    const { user, system } = process.cpuUsage(cpu);
    const overall = summarise(results);
    // CPU time, not wall time: on a shared machine the wall clock measures the neighbours too.
    console.log(
      `\n${set.name}: harvested ${passages.length} passages in ${((user + system) / 1e6).toFixed(2)} s of CPU (${((user + system) / 1e3 / Math.max(1, passages.length)).toFixed(1)} ms each)`,
    );
    printScore(`${set.name}${options.split ? ` — ${options.split}` : ''}, domain ${set.domain}`, overall);
    const bySplit = groupBy(results, (result) => result.passage.split);
    if (bySplit.size > 1) for (const [split, group] of bySplit) printScore(`${set.name} — ${split}`, summarise(group));
    const byKind = groupBy(results, (result) => result.passage.kind);
    if (byKind.size > 1)
      for (const [kind, group] of byKind)
        printScore(`${set.name}${options.split ? ` — ${options.split}` : ''} — ${kind}`, summarise(group));
    if (options.misses) printMisses(overall);
  }
}

/** Passages spread evenly over the kit, so a sample sees its whole range rather than its first titles. */
function sample<T>(items: readonly T[], limit: number): T[] {
  if (limit >= items.length) return [...items];
  return Array.from({ length: limit }, (_, i) => items[Math.floor((i * items.length) / limit)]);
}

async function scoreCorpus(corpus: string): Promise<void> {
  if (corpus !== '2wiki') throw new Error(`--corpus knows only 2wiki, not ${corpus}`);
  const limit = options.limit ? Number(options.limit) : Infinity;
  if (!(limit > 0)) throw new Error(`--limit is a positive number, not ${options.limit}`);
  const passages = sample(loadKit().passages, limit);
  const domains = builtinDomains();
  const harvest = builtinHarvester();
  const types = new Map<string, number>();
  const detected = new Map<string, number>();
  let relationships = 0;
  let entities = 0;
  const started = Date.now();
  for (const [index, passage] of passages.entries()) {
    const text = passageText(passage);
    const domain = detectDomain({ samples: [text], filename: `${passage.title}.txt` }, domains).detected_domain;
    detected.set(domain, (detected.get(domain) ?? 0) + 1);
    const result = await harvest(`2wiki-${index}`, text, domain);
    entities += result.entities.length;
    for (const relationship of result.relationships) {
      relationships++;
      const type = relationship.type.toLowerCase();
      types.set(type, (types.get(type) ?? 0) + 1);
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    `builtin harvest over ${passages.length} 2wiki passages (${seconds} s): ${entities} entities, ${relationships} relations`,
  );
  console.log(`domains: ${[...detected].map(([name, count]) => `${name} ${count}`).join(', ')}`);
  console.log(`related_to share ${((types.get('related_to') ?? 0) / Math.max(1, relationships)).toFixed(3)}`);
  for (const [type, count] of [...types].sort((a, b) => b[1] - a[1]))
    console.log(`  ${type.padEnd(24)} ${String(count).padStart(6)}  ${((100 * count) / relationships).toFixed(1)} %`);
}

if (options.corpus) await scoreCorpus(options.corpus);
else await scoreSets();
