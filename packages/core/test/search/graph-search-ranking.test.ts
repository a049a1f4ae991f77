import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGraphSearch } from '../../src/search/graph/index.ts';
import {
  fusedPassages,
  keywordLead,
  passageLead,
  withEntities,
  withKeywordLead,
} from '../../src/search/graph/ranking.ts';
import { retrievalScores, spread } from '../../src/search/graph/seeds.ts';
import type { RankedItem, SearchScope } from '../../src/search/types.ts';
import {
  addChunk,
  addNode,
  addSource,
  openTestDatabase,
  testContext,
  testDeps,
  type TestDatabase,
} from './graph-support.ts';

const everywhere: SearchScope = { sourceIds: null, templateId: null };
const chunk = (id: string, score: number): RankedItem => ({ kind: 'chunk', id, score });
const node = (id: string, score: number): RankedItem => ({ kind: 'node', id, score });

describe('graph search ranking', () => {
  it('adds the seeding retrieval to the walk, so a passage the retrieval puts first stays in front', () => {
    const walk = [chunk('a', 0.4), chunk('b', 0.2)];
    const retrieved = new Map([
      ['b', 2],
      ['c', 1.6],
    ]);
    // b: 0.5 + 1, a: 1 + 0, c: 0 + 0.8 (left out by the walk, kept by the retrieval), relative to b.
    expect(fusedPassages(walk, retrieved, 1, 10)).toEqual([chunk('b', 1), chunk('a', 1 / 1.5), chunk('c', 0.8 / 1.5)]);
    // Without the retrieval's weight the walk's order stands and nothing else comes in.
    expect(fusedPassages(walk, retrieved, 0, 10)).toEqual([chunk('a', 1), chunk('b', 0.5)]);
    expect(fusedPassages(walk, retrieved, 1, 2).map((item) => item.id)).toEqual(['b', 'a']);
  });

  it("puts the keyword ranking's first passages ahead of the walk's, the walk ordering the rest", () => {
    const keyword = Array.from({ length: keywordLead + 1 }, (_, i) => chunk(`k${i}`, 1 - i / 10));
    const lead = keyword.slice(0, keywordLead).map((item) => item.id);
    // The walk ranks a hop first and the second keyword passage low; the last keyword one is past the lead.
    const walk = [
      chunk('hop', 1),
      chunk('w1', 0.8),
      chunk('k1', 0.5),
      chunk(`k${keywordLead}`, 0.45),
      chunk('w2', 0.4),
    ];
    const led = withKeywordLead(walk, keyword, 20);
    expect(led.map((item) => item.id)).toEqual([...lead, 'hop', 'w1', `k${keywordLead}`, 'w2']);
    // The lead scores as the best passage, so sorting the list again (with entities) keeps it in front.
    expect(
      withEntities(led, [node('hub', 1)], 20)
        .slice(0, keywordLead)
        .map((item) => item.id),
    ).toEqual(lead);
    expect(withKeywordLead(walk, [], 20)).toEqual(walk);
    expect(withKeywordLead(walk, keyword, 1).map((item) => item.id)).toEqual(['k0']);
    // A longer lead (hybrid search's) keeps the next keyword passage ahead of the walk too.
    expect(withKeywordLead(walk, keyword, 20, keywordLead + 1).map((item) => item.id)).toEqual([
      ...lead,
      `k${keywordLead}`,
      'hop',
      'w1',
      'w2',
    ]);
  });

  it("spreads similarities from the list's lowest to its best, so a vector hit adds little for being listed", () => {
    const similar = [chunk('a', 0.31), chunk('b', 0.29), chunk('c', 0.26), chunk('d', 0.21)];
    const spreadOut = spread(similar);
    expect(spreadOut.map((item) => item.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(spreadOut.map((item) => item.score)).toEqual([1, 0.8, 0.5, 0].map((score) => expect.closeTo(score, 9)));
    // Relative to the best alone the last hit would still add 0.68 to a passage's retrieval score.
    expect(retrievalScores([similar]).get('d')).toBeCloseTo(0.21 / 0.31, 9);
    expect(retrievalScores([spreadOut]).get('d')).toBe(0);
    expect(spread([chunk('x', 0.4), chunk('y', 0.4)]).map((item) => item.score)).toEqual([1, 1]);
    expect(spread([])).toEqual([]);
  });

  it('lets no entity into the first passages, and keeps the list ordered by score', () => {
    const passages = [1, 0.9, 0.8, 0.7, 0.6, 0.5].map((score, i) => chunk(`p${i}`, score));
    const items = withEntities(passages, [node('hub', 1), node('other', 0.5)], 10);
    expect(items.slice(0, passageLead).every((item) => item.kind === 'chunk')).toBe(true);
    expect(items.map((item) => item.id)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'hub', 'p5', 'other']);
    expect(items.every((item, i) => i === 0 || item.score <= items[i - 1].score)).toBe(true);
    // Fewer passages than the lead: the entities follow the last of them.
    expect(withEntities([chunk('p', 0.3)], [node('hub', 1)], 10).map((item) => item.id)).toEqual(['p', 'hub']);
    expect(withEntities([], [node('hub', 1)], 10)).toEqual([node('hub', 1)]);
  });
});

describe('graph search on a graph of generic entities', () => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await openTestDatabase('rhizome-graph-ranking-');
  });
  afterEach(() => t.close());

  /**
   * A licence file and a history, as builtin extraction leaves them: "Software" cited by every licence
   * passage and by the passage that answers, which keyword search finds by its words; the licence
   * passages hold one another up through their boilerplate entities.
   */
  async function genericFixture() {
    await addSource(t.db, 'history');
    await addSource(t.db, 'licence');
    await addNode(t.db, 'software', 'Software', { sources: ['history', 'licence'] });
    const boilerplate = ['Warranty', 'Licensee', 'Copyright Holders'];
    for (const label of boilerplate) await addNode(t.db, label, label, { sources: ['licence'] });
    await addChunk(
      t.db,
      'answer',
      'history',
      'Python was created in the early 1990s by Guido van Rossum as a successor of ABC; the software grew from there.',
      ['software'],
    );
    for (let i = 0; i < 8; i++)
      await addChunk(
        t.db,
        `licence${i}`,
        'licence',
        `Clause ${i}: the software is provided as is, without warranty of any kind, express or implied.`,
        ['software', ...boilerplate],
      );
  }

  it('keeps the passage keyword search puts first when the query names nothing but a generic entity', async () => {
    await genericFixture();
    const context = testContext(t.db);
    const query = 'who created this software';
    const result = await createGraphSearch(testDeps)(context, query, everywhere, 10);
    expect(result.fallback).toBeNull();
    expect(result.items[0]).toEqual({ kind: 'chunk', id: 'answer', score: 1 });
    expect(result.items.slice(0, passageLead).every((item) => item.kind === 'chunk')).toBe(true);
  });
});
