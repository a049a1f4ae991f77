import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidatePairs, findDuplicatePairs } from '../../src/graph/duplicates/find.ts';
import { typeEvidence } from '../../src/graph/duplicates/evidence.ts';
import { blockKeys, nameEvidence, namedNode } from '../../src/graph/duplicates/name-match.ts';
import { normalizeNameKey } from '../../src/graph/names.ts';
import { openTestDatabase, type TestDatabase } from '../search/graph-support.ts';

const at = '2026-01-01T00:00:00.000Z';

/** Made-up names, consonant-vowel words of five to nine letters from a seeded generator: the same every run. */
function madeUpNames(count: number, seed: number): string[] {
  const consonants = 'bcdfghjklmnprstvwz';
  const vowels = 'aeiou';
  let state = seed;
  const next = (bound: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * bound);
  };
  const names = new Set<string>();
  while (names.size < count) {
    const length = 5 + next(5);
    let name = '';
    for (let index = 0; index < length; index += 1)
      name += index % 2 ? vowels[next(vowels.length)] : consonants[next(consonants.length)];
    names.add(name);
  }
  return [...names];
}

const firstNames = madeUpNames(400, 7);
const lastNames = madeUpNames(250, 11);

/** The last two letters swapped: the typo a reader recognises. */
const swapped = (word: string) => word.slice(0, -2) + word.at(-1) + word.at(-2);

function named(text: string, other: string, otherAliases: string[] = []) {
  const a = namedNode(normalizeNameKey(text), []);
  const b = namedNode(normalizeNameKey(other), otherAliases.map(normalizeNameKey));
  return nameEvidence(a, b, [text, other]);
}

describe('name evidence', () => {
  it('finds the ways real text names one entity twice', () => {
    expect(named('Marie Curie', 'marie  curie.')[0]).toMatchObject({ kind: 'name_key' });
    expect(named('Madame Curie', 'Maria Skłodowska', ['Madame Curie'])[0]).toMatchObject({ kind: 'alias' });
    expect(named('Albert Einstien', 'Albert Einstein')[0]).toMatchObject({ kind: 'near_name' });
    expect(named('J. R. R. Tolkien', 'John Ronald Reuel Tolkien')[0]).toMatchObject({ kind: 'near_name' });
    expect(named('V. Woolf', 'Virginia Woolf')[0]).toMatchObject({ kind: 'near_name' });
    expect(named('IBM', 'International Business Machines')[0]).toMatchObject({ kind: 'near_name' });
    expect(named('Oxford University', 'University of Oxford')[0]).toMatchObject({ kind: 'near_name' });
  });

  it('keeps numbered and merely related names apart', () => {
    expect(named('World War I', 'World War II')).toEqual([]);
    expect(named('Apollo 11', 'Apollo 12')).toEqual([]);
    expect(named('Henry V', 'Henry VI')).toEqual([]);
    expect(named('Pierre Curie', 'Marie Curie')).toEqual([]);
    expect(named('Java', 'JavaScript')).toEqual([]);
  });

  it('puts a typo and an abbreviated first name in a block with the full name', () => {
    const shared = (a: string, b: string) =>
      blockKeys(normalizeNameKey(a)).filter((key) => blockKeys(normalizeNameKey(b)).includes(key));
    expect(shared('John Smith', 'John Smiht')).not.toEqual([]);
    expect(shared('J. Smith', 'John Smith')).not.toEqual([]);
    expect(shared('Einstein', 'Einstien')).not.toEqual([]);
  });
});

describe('duplicate proposals on a 100k-node graph', () => {
  let t: TestDatabase;
  const planted: [string, string][] = [];
  const ambiguous: [string, string][] = [];
  const labels: string[] = [];

  beforeAll(async () => {
    t = await openTestDatabase('rhizome-duplicates-');
    const rows: { id: string; label: string; properties: string }[] = [];
    for (const first of firstNames)
      for (const last of lastNames)
        rows.push({ id: `n_${first}_${last}`, label: `${first} ${last}`, properties: '{}' });
    // Every 997th person is also written with a typo, every 1999th under an alias, and every 1499th with an
    // initial, which fits every full name of that initial and surname (twenty or so) and so names no one.
    rows.forEach((row, index) => {
      const [first, last] = row.label.split(' ');
      if (index % 997 === 0) {
        rows.push({ id: `typo_${index}`, label: `${first} ${swapped(last)}`, properties: '{}' });
        planted.push([row.id, `typo_${index}`]);
      }
      if (index % 1499 === 0) {
        rows.push({ id: `initial_${index}`, label: `${first[0]}. ${last}`, properties: '{}' });
        ambiguous.push([row.id, `initial_${index}`]);
      }
      if (index % 1999 === 0) {
        rows.push({
          id: `alias_${index}`,
          label: `Nickname ${index}`,
          properties: JSON.stringify({ aliases: [row.label] }),
        });
        planted.push([row.id, `alias_${index}`]);
      }
    });
    labels.push(...rows.map((row) => row.label));
    for (let start = 0; start < rows.length; start += 400) {
      await t.db('graph_nodes').insert(
        rows.slice(start, start + 400).map((row) => ({
          ...row,
          template_id: 'entity',
          created_at: at,
          updated_at: at,
        })),
      );
    }
  }, 120_000);
  afterAll(() => t.close());

  it('compares pairs inside blocks only, a vanishing share of all pairs', { timeout: 300_000 }, () => {
    const entries = labels.map((label) => ({ ...namedNode(normalizeNameKey(label), []), label }));
    const { compared } = candidatePairs(entries);
    const allPairs = (entries.length * (entries.length - 1)) / 2;
    console.log(`${entries.length} nodes: ${compared} pairs compared of ${allPairs}`);
    expect(compared / allPairs).toBeLessThan(0.0002);
  });

  it('finds the planted duplicates and proposes little else', async () => {
    const started = performance.now();
    const pairs = await findDuplicatePairs(t.db);
    const elapsedMs = performance.now() - started;
    // Timed for the log only: the machine running the suite may be shared.
    console.log(`100k-node graph: ${pairs.length} pairs in ${Math.round(elapsedMs)} ms`);
    const found = new Set(pairs.map((pair) => [...pair.nodeIds].sort().join(' ')));
    const missed = planted.filter((pair) => !found.has([...pair].sort().join(' ')));
    expect(missed).toEqual([]);
    const proposedIds = new Set(pairs.flatMap((pair) => pair.nodeIds));
    expect(ambiguous.filter(([, initial]) => proposedIds.has(initial))).toEqual([]);
    // Typos score at the default threshold; people who only share a first or last name do not.
    const scoreOf = new Map(pairs.map((pair) => [[...pair.nodeIds].sort().join(' '), pair.score]));
    // An alias the names do not bear out and no neighbour confirms is found, but below the threshold.
    const typos = planted.filter(([, other]) => other.startsWith('typo_'));
    expect(typos.every((pair) => scoreOf.get([...pair].sort().join(' '))! >= 0.5)).toBe(true);
    const proposed = pairs.filter((pair) => pair.score >= 0.5).length;
    console.log(`${proposed} proposals at 0.5 or more for ${planted.length} planted duplicates`);
    expect(proposed).toBeLessThan(typos.length * 1.2);
  }, 300_000);
});

describe('type evidence', () => {
  const template = (id: string, name: string) => ({ id, name });
  it('counts two names of one kind of thing as compatible, and different kinds against', () => {
    expect(typeEvidence([template('t1', 'Place'), template('system_template_location', 'Location')]).weight).toBe(0.05);
    expect(typeEvidence([template('t2', 'Institution'), template('t3', 'Organization')]).weight).toBe(0.05);
    expect(typeEvidence([template('t4', 'Creative Work'), template('t5', 'Document')]).weight).toBe(0.05);
    expect(typeEvidence([template('t6', 'Person'), template('t1', 'Place')]).weight).toBe(-0.35);
    expect(typeEvidence([template('t6', 'Person'), template('t6', 'Person')]).weight).toBe(0.1);
  });
});
