import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadKit, passageText } from '../../../../tools/eval/kit.ts';
import { BuiltinEmbeddingAdapter } from '../../src/providers/embeddings/builtin/adapter.ts';
import { corpusComponents } from '../../src/providers/embeddings/builtin/threaded.ts';
import { fillCorpusParts } from '../../src/search/vectors/corpus/embed.ts';
import { emptyStats, learnTexts, type TermStats } from '../../src/search/vectors/corpus/model.ts';
import { defaultSeed, wordsOf } from '../../src/search/vectors/corpus/store.ts';
import { corpusDimensions } from '../../src/search/vectors/corpus/terms.ts';

const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-embed-retrieval-'));
afterAll(() => fs.rmSync(cacheDir, { recursive: true, force: true }));

/** All-evidence@8 of plain vector search (exact cosine) over the 2Wiki kit, as `pnpm eval:retrieval` counts it. */
async function allEvidence(withCorpus: boolean): Promise<number> {
  const kit = loadKit();
  const texts = kit.passages.map(passageText);
  const questions = kit.questions.map((question) => question.question);
  const words = new BuiltinEmbeddingAdapter({ cacheDir });
  const signal = new AbortController().signal;
  const padded = async (batch: string[]) =>
    (await words.embed(batch, signal)).map((vector) => {
      const full = new Float32Array(vector.length + corpusDimensions);
      full.set(vector);
      return full;
    });
  let passages: Float32Array[] = await padded(texts);
  let queries: Float32Array[] = await padded(questions);
  if (withCorpus) {
    const terms = new Map<string, TermStats>(wordsOf(texts).map((word) => [word, emptyStats()]));
    learnTexts(defaultSeed, texts, terms);
    const corpus = { seed: defaultSeed, documents: texts.length, terms };
    passages = fillCorpusParts(texts, passages, corpus);
    queries = fillCorpusParts(questions, queries, corpus);
  }
  let found = 0;
  kit.questions.forEach((question, index) => {
    const query = queries[index];
    const ranked = passages
      .map((passage, at) => {
        let dot = 0;
        for (let i = 0; i < query.length; i++) dot += query[i] * passage[i];
        return { title: kit.passages[at].title, dot };
      })
      .sort((a, b) => b.dot - a.dot);
    const top: string[] = [];
    for (const { title } of ranked) if (top.length < 8 && !top.includes(title)) top.push(title);
    if (question.supporting_titles.every((title) => top.includes(title))) found++;
  });
  return found / kit.questions.length;
}

describe('corpus embedding on the 2Wiki kit', () => {
  it('the builtin embedder leaves as many components for the corpus part as the corpus model fills', () => {
    expect(corpusComponents).toBe(corpusDimensions);
  });

  it('finds all evidence for at least 0.28 of the questions, where the word vectors alone find 0.12', async () => {
    const [plain, learned] = [await allEvidence(false), await allEvidence(true)];
    process.stdout.write(
      `all-evidence@8: word vectors ${plain.toFixed(3)}, with the corpus model ${learned.toFixed(3)}\n`,
    );
    expect(plain).toBeLessThan(0.2);
    expect(learned).toBeGreaterThanOrEqual(0.28);
  }, 120_000);
});
