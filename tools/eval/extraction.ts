// Precision and recall of the builtin extractor on the hand-labelled passages
// (packages/core/test/fixtures/extraction/labelled-passages.json): entities by name, entities by
// name and type, typed relations, and the share of `related_to` among the relations.
//
//   pnpm eval:extraction            the figures
//   pnpm eval:extraction --misses   also, per passage, what was extracted wrongly and what was missed
import { parseArgs } from 'node:util';
import { scoreLabelledPassages, type PrecisionRecall } from '../../packages/core/test/fixtures/extraction/score.ts';

const { values: options } = parseArgs({ options: { misses: { type: 'boolean' } } });
const score = await scoreLabelledPassages();
const row = (label: string, figures: PrecisionRecall) =>
  `${label.padEnd(22)} P ${figures.precision.toFixed(3)}  R ${figures.recall.toFixed(3)}  F1 ${figures.f1.toFixed(3)}`;

console.log(`builtin extraction on ${score.passages} labelled passages`);
console.log(row('entities (name)', score.entities));
console.log(row('entities (name+type)', score.typedEntities));
console.log(row('relations (typed)', score.relations));
console.log(`related_to share       ${score.relatedToShare.toFixed(3)}`);
if (options.misses) {
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
