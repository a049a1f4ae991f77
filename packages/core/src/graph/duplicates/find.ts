import { createHash } from 'node:crypto';
import { decodeVector, perDialect, selectRows, type Db } from '../../storage/index.ts';
import { normalizeNameKey } from '../names.ts';
import { parseJsonObject, placeholders } from '../nodes/sql.ts';
import { cosineOf, neighbourEvidence, scoreOf, typeEvidence, vectorEvidence, type Evidence } from './evidence.ts';
import {
  abbreviationBlock,
  abbreviationDetail,
  blockKeys,
  hasInitial,
  nameEvidence,
  namedNode,
  borneAliasWeight,
  round,
  type NamedNode,
} from './name-match.ts';

/** A pair of nodes that are probably one, before its nodes are described for a response. */
export interface FoundPair {
  id: string;
  score: number;
  nodeIds: [string, string];
  evidence: Evidence[];
}

interface Entry extends NamedNode {
  id: string;
  label: string;
  templateId: string;
  aliases: string[];
}

/** The widest block compared pair by pair: a token shared by more nodes than this names no one in particular. */
const maxBlock = 40;
/** Nodes sharing a whole name key are compared in larger groups. */
const maxKeyBlock = 500;
/** Pairs scored below this are not kept at all. */
export const scoreFloor = 0.3;
const idBatch = 500;

/** The id of a pair, the same whichever node is named first. */
export function pairId(a: string, b: string): string {
  const [first, second] = [a, b].sort();
  return `dup_${createHash('sha256').update(`${first}\u0000${second}`).digest('hex').slice(0, 24)}`;
}

/**
 * Every pair of nodes scoring at least the floor, highest first. Nodes are grouped by blocking keys of
 * their names and aliases (whole key, tokens, prefixes of long tokens, initials), pairs are taken only
 * inside a block, and only pairs with some name evidence are scored further: shared neighbours, vectors
 * of the same model, and whether their types agree. With `among`, only pairs with a node of it are kept.
 */
export async function findDuplicatePairs(db: Db, among?: ReadonlySet<string>): Promise<FoundPair[]> {
  const entries = await loadEntries(db);
  const templates = await templateNames(db);
  const { pairs: named } = candidatePairs(entries, among && ((index) => among.has(entries[index].id)));
  const involved = [...new Set(named.flatMap(({ a, b }) => [entries[a].id, entries[b].id]))];
  const neighbours = await neighboursOf(db, involved);
  const vectors = await vectorsOf(db, involved);
  const labelOf = new Map(entries.map((entry) => [entry.id, entry.label]));

  const found: FoundPair[] = [];
  for (const { a, b, names } of named) {
    const [first, second] = [entries[a], entries[b]];
    const evidence: Evidence[] = names.map((finding) => ({ ...finding }));
    const shared = sharedNeighbours(neighbours, first.id, second.id);
    const neighbourFinding = neighbourEvidence(
      shared.shared.map((id) => labelOf.get(id) ?? id),
      shared.unionSize,
    );
    if (neighbourFinding) {
      evidence.push(neighbourFinding);
      // Shared neighbours bear out an alias when the names relate at all: alone, they are often only
      // two entities of one passage.
      if (evidence.some((finding) => finding.kind === 'near_name'))
        for (const finding of evidence) if (finding.kind === 'alias') finding.weight = borneAliasWeight(finding.weight);
    }
    const [vectorA, vectorB] = [vectors.get(first.id), vectors.get(second.id)];
    if (vectorA && vectorB && vectorA.model === vectorB.model && vectorA.vector.length === vectorB.vector.length) {
      const vectorFinding = vectorEvidence(cosineOf(vectorA.vector, vectorB.vector));
      if (vectorFinding) evidence.push(vectorFinding);
    }
    evidence.push(
      typeEvidence([
        { id: first.templateId, name: templates.get(first.templateId) ?? first.templateId },
        { id: second.templateId, name: templates.get(second.templateId) ?? second.templateId },
      ]),
    );
    const score = scoreOf(evidence);
    if (score < scoreFloor) continue;
    evidence.sort((x, y) => Math.abs(y.weight) - Math.abs(x.weight));
    found.push({ id: pairId(first.id, second.id), score, nodeIds: [first.id, second.id], evidence });
  }
  return found.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
}

async function loadEntries(db: Db): Promise<Entry[]> {
  const rows = await selectRows<{ id: string; label: string; template_id: string; aliases: string | null }>(
    db,
    `SELECT id, label, template_id, ${aliasesColumn(db, 'properties')} AS aliases
     FROM graph_nodes ORDER BY rowid`,
  );
  return rows.map((row) => {
    const aliases = aliasesOf(db, row.aliases);
    return {
      ...namedNode(normalizeNameKey(row.label), aliases.map(normalizeNameKey).filter(Boolean)),
      id: row.id,
      label: row.label,
      templateId: row.template_id,
      aliases,
    };
  });
}

/**
 * What a SELECT reads of a JSON properties column for `aliasesOf`: on SQLite the `aliases` property
 * (JSON text of a list, or a single name), null for malformed JSON; on PostgreSQL, which cannot test text
 * for valid JSON before a cast fails, the properties of the rows naming aliases, parsed by `aliasesOf`.
 */
export const aliasesColumn = perDialect<[column: string], string>({
  sqlite: (_db, column) => `CASE WHEN json_valid(${column}) THEN json_extract(${column}, '$.aliases') END`,
  postgres: (_db, column) => `CASE WHEN strpos(${column}, '"aliases"') > 0 THEN ${column} END`,
});

/** The aliases a column `aliasesColumn` made holds. */
export const aliasesOf = perDialect<[value: string | null], string[]>({
  sqlite: (_db, value) => aliasList(value),
  postgres: (_db, value) => aliasList(aliasesProperty(value)),
});

/** The `aliases` property of JSON properties as SQLite's json_extract gives it: a name as itself, else as JSON text. */
function aliasesProperty(properties: string | null): string | null {
  const aliases = parseJsonObject(properties)?.aliases;
  if (aliases === undefined || aliases === null) return null;
  return typeof aliases === 'string' ? aliases : JSON.stringify(aliases);
}

/** The aliases property, as JSON text (a list of names) or a single name. */
export function aliasList(value: string | null): string[] {
  if (!value) return [];
  try {
    const parsed = JSON.parse(value) as unknown;
    if (Array.isArray(parsed))
      return parsed.filter((item): item is string => typeof item === 'string' && !!item.trim());
    return typeof parsed === 'string' && parsed.trim() ? [parsed] : [];
  } catch {
    return value.trim() ? [value] : [];
  }
}

async function templateNames(db: Db): Promise<Map<string, string>> {
  const rows = await db('graph_templates').select('id', 'name');
  return new Map(rows.map((row) => [row.id, row.name]));
}

interface NamedPair {
  a: number;
  b: number;
  names: Evidence[];
}

/**
 * Pairs inside a block that their names alone make worth scoring, and how many pairs were compared; with
 * `wanted`, only pairs with an entry it accepts.
 */
export function candidatePairs(
  entries: (NamedNode & { label: string })[],
  wanted?: (index: number) => boolean,
): { pairs: NamedPair[]; compared: number } {
  const blocks = new Map<string, number[]>();
  entries.forEach((entry, index) => {
    if (!entry.key) return;
    const keys = new Set([entry.key, ...entry.aliasKeys].flatMap(blockKeys));
    for (const key of keys) {
      const members = blocks.get(key);
      if (members) members.push(index);
      else blocks.set(key, [index]);
    }
  });
  const seen = new Set<number>();
  const pairs: NamedPair[] = [];
  let compared = 0;
  for (const [key, members] of blocks) {
    // Only pairs with an abbreviated name are compared in an abbreviation block, so it may be as large as a key's.
    const abbreviated = key.startsWith(abbreviationBlock);
    if (members.length < 2 || members.length > (key.startsWith('k:') || abbreviated ? maxKeyBlock : maxBlock)) continue;
    for (let i = 0; i < members.length; i += 1) {
      for (let j = i + 1; j < members.length; j += 1) {
        const [a, b] = [members[i], members[j]];
        if (abbreviated && !hasInitial(entries[a]) && !hasInitial(entries[b])) continue;
        if (wanted && !wanted(a) && !wanted(b)) continue;
        const code = a * entries.length + b;
        if (seen.has(code)) continue;
        seen.add(code);
        compared += 1;
        const names = nameEvidence(entries[a], entries[b], [entries[a].label, entries[b].label]);
        if (names.length) pairs.push({ a, b, names });
      }
    }
  }
  weighAmbiguousAbbreviations(entries, pairs);
  return { pairs, compared };
}

/** "J. Smith" fitting five full names says less of each: the abbreviation's weight is shared among them. */
function weighAmbiguousAbbreviations(entries: NamedNode[], pairs: NamedPair[]): void {
  const abbreviatedOf = (pair: NamedPair) => (hasInitial(entries[pair.a]) ? pair.a : pair.b);
  const abbreviating = pairs.filter((pair) => pair.names.some((finding) => finding.detail === abbreviationDetail));
  const fits = new Map<number, number>();
  for (const pair of abbreviating) fits.set(abbreviatedOf(pair), (fits.get(abbreviatedOf(pair)) ?? 0) + 1);
  for (const pair of abbreviating) {
    const count = fits.get(abbreviatedOf(pair))!;
    if (count < 2) continue;
    pair.names = pair.names.map((finding) =>
      finding.detail === abbreviationDetail
        ? {
            ...finding,
            detail: `${abbreviationDetail}, and fits ${count} names`,
            weight: round(finding.weight / count),
          }
        : finding,
    );
  }
}

async function neighboursOf(db: Db, ids: string[]): Promise<Map<string, Set<string>>> {
  const neighbours = new Map<string, Set<string>>();
  const add = (from: string, to: string) => {
    const set = neighbours.get(from);
    if (set) set.add(to);
    else neighbours.set(from, new Set([to]));
  };
  for (let start = 0; start < ids.length; start += idBatch) {
    const batch = ids.slice(start, start + idBatch);
    const marks = placeholders(batch.length);
    const rows = await selectRows<{ source: string; target: string }>(
      db,
      `SELECT source_node_id AS source, target_node_id AS target FROM graph_edges WHERE source_node_id IN (${marks})
       UNION SELECT source_node_id, target_node_id FROM graph_edges WHERE target_node_id IN (${marks})`,
      [...batch, ...batch],
    );
    for (const { source, target } of rows) {
      add(source, target);
      add(target, source);
    }
  }
  return neighbours;
}

function sharedNeighbours(neighbours: Map<string, Set<string>>, a: string, b: string) {
  const ofA = [...(neighbours.get(a) ?? [])].filter((id) => id !== a && id !== b);
  const ofB = new Set([...(neighbours.get(b) ?? [])].filter((id) => id !== a && id !== b));
  const shared = ofA.filter((id) => ofB.has(id));
  return { shared, unionSize: ofA.length + ofB.size - shared.length };
}

async function vectorsOf(db: Db, ids: string[]): Promise<Map<string, { model: string; vector: Float32Array }>> {
  const vectors = new Map<string, { model: string; vector: Float32Array }>();
  for (let start = 0; start < ids.length; start += idBatch) {
    const rows = await db('node_embeddings')
      .whereIn('node_id', ids.slice(start, start + idBatch))
      .select('node_id', 'model', 'dimensions', 'vector');
    for (const row of rows)
      vectors.set(row.node_id, { model: row.model, vector: decodeVector(row.vector, row.dimensions) });
  }
  return vectors;
}
