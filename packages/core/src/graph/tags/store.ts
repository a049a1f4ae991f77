import { randomBytes } from 'node:crypto';
import { Conflict, NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';

/** An entity tag as the tag endpoints show it. */
export interface NodeTag {
  id: string;
  database_name: string;
  name: string;
  color: string | null;
  description: string | null;
  created_at: string;
}

/** What a node list item shows of each of its tags. */
export interface NodeTagRef {
  id: string;
  name: string;
  color: string | null;
}

export interface NodeTagChanges {
  name?: string;
  color?: string | null;
  description?: string | null;
}

/** One node's outcome in a tagging of many. */
export interface NodeTagOutcome {
  index: number;
  id: string;
  success: boolean;
  error?: string;
}

type TagRow = Omit<NodeTag, 'database_name'>;

const columns = ['t.id', 't.name', 't.color', 't.description', 't.created_at'] as const;
/** Ids per statement, well under SQLite's bound-parameter limit. */
const idBatch = 500;

const nameKey = (name: string) => name.toLowerCase();

/** The tags of each of `nodeIds`, by name; a node without any has an empty list. */
export async function nodeTagRefs(db: Db, nodeIds: readonly string[]): Promise<Map<string, NodeTagRef[]>> {
  const tags = new Map<string, NodeTagRef[]>(nodeIds.map((id) => [id, []]));
  for (let start = 0; start < nodeIds.length; start += idBatch) {
    const rows: (NodeTagRef & { node_id: string })[] = await db('node_tag_links as l')
      .join('node_tags as t', 't.id', 'l.tag_id')
      .whereIn('l.node_id', nodeIds.slice(start, start + idBatch))
      .orderBy('t.name_key')
      .select('l.node_id', 't.id', 't.name', 't.color');
    for (const { node_id, ...tag } of rows) tags.get(node_id)?.push(tag);
  }
  return tags;
}

/**
 * The tags of one database's entities: named, optionally coloured and described labels a person puts on
 * nodes. Names are one per database whatever their case. An assignment goes with its node (a delete or a
 * merge's absorbed nodes) or its tag (ON DELETE CASCADE).
 */
export class NodeTags {
  constructor(
    private readonly db: Db,
    private readonly database: string,
  ) {}

  async list(): Promise<(NodeTag & { node_count: number })[]> {
    const rows = await this.db('node_tags as t')
      .leftJoin('node_tag_links as l', 'l.tag_id', 't.id')
      .groupBy('t.id', 't.name', 't.color', 't.description', 't.created_at')
      .orderBy('t.name_key')
      .select(...columns, this.db.raw('COUNT(l.node_id) AS node_count'));
    return rows.map((row: TagRow & { node_count: number | string }) => ({
      ...this.shown(row),
      node_count: Number(row.node_count),
    }));
  }

  /** Creates the tag, or answers the existing one whose name matches regardless of case. */
  async create(name: string, color: string | null, description: string | null): Promise<NodeTag> {
    const existing = await this.named(name);
    if (existing) return existing;
    const at = new Date().toISOString();
    const id = `ntag_${randomBytes(8).toString('hex')}`;
    await this.db('node_tags').insert({
      id,
      name,
      name_key: nameKey(name),
      color,
      description,
      created_at: at,
      updated_at: at,
    });
    return this.shown({ id, name, color, description, created_at: at });
  }

  /** Renames, recolours or describes a tag; 409 for a name another tag has (in any case). */
  async update(id: string, changes: NodeTagChanges): Promise<NodeTag> {
    const current = await this.require(id);
    if (changes.name !== undefined) {
      const holder = await this.named(changes.name);
      if (holder && holder.id !== id) throw new Conflict(`A tag named '${changes.name}' exists`, { field: 'name' });
    }
    const next = { ...current, ...changes };
    await this.db('node_tags')
      .where({ id })
      .update({
        name: next.name,
        name_key: nameKey(next.name),
        color: next.color,
        description: next.description,
        updated_at: new Date().toISOString(),
      });
    return next;
  }

  async delete(id: string): Promise<void> {
    await this.require(id);
    await this.db('node_tags').where({ id }).delete();
  }

  /** Puts the tag on the node (again is a no-op); 404 for an unknown node or tag. */
  async attach(nodeId: string, tagId: string): Promise<void> {
    const [outcome] = await this.attachMany(tagId, [nodeId]);
    if (!outcome.success) throw NotFound.resource('node', nodeId);
  }

  /**
   * Puts the tag on each of `nodeIds`, each reported on its own in the order given: a node that does not
   * exist fails alone, one that has the tag already succeeds. 404 for an unknown tag.
   */
  async attachMany(tagId: string, nodeIds: readonly string[]): Promise<NodeTagOutcome[]> {
    await this.require(tagId);
    const outcomes: NodeTagOutcome[] = [];
    for (let start = 0; start < nodeIds.length; start += idBatch) {
      const batch = nodeIds.slice(start, start + idBatch);
      await this.db.transaction(async (trx) => {
        const found = new Set<string>(await trx('graph_nodes').whereIn('id', batch).pluck('id'));
        const present = [...new Set(batch.filter((id) => found.has(id)))];
        if (present.length)
          await trx('node_tag_links')
            .insert(present.map((node_id) => ({ node_id, tag_id: tagId })))
            .onConflict(['node_id', 'tag_id'])
            .ignore();
        batch.forEach((id, offset) =>
          outcomes.push(
            found.has(id)
              ? { index: start + offset, id, success: true }
              : { index: start + offset, id, success: false, error: `Node '${id}' not found` },
          ),
        );
      });
    }
    return outcomes;
  }

  /** Takes the tag off the node; 404 when the node does not carry it. */
  async detach(nodeId: string, tagId: string): Promise<void> {
    const removed = await this.db('node_tag_links').where({ node_id: nodeId, tag_id: tagId }).delete();
    if (!removed) throw NotFound.resource('node_tag_assignment', `${nodeId}/${tagId}`);
  }

  async require(id: string): Promise<NodeTag> {
    const row = (await this.db('node_tags as t')
      .where('t.id', id)
      .first(...columns)) as TagRow | undefined;
    if (!row) throw NotFound.resource('node_tag', id);
    return this.shown(row);
  }

  private async named(name: string): Promise<NodeTag | undefined> {
    const row = (await this.db('node_tags as t')
      .where('t.name_key', nameKey(name))
      .first(...columns)) as TagRow | undefined;
    return row ? this.shown(row) : undefined;
  }

  private shown(row: TagRow): NodeTag {
    const { id, ...rest } = row;
    return { id, database_name: this.database, ...rest };
  }
}
