import { randomBytes } from 'node:crypto';
import { NotFound, Conflict } from '@rhizome/contracts/errors';
import type { TagBody } from '@rhizome/contracts/api/sources';
import type { Db } from '../storage/index.ts';

/** A source tag as the tag endpoints show it. */
export type SourceTag = TagBody;

export interface TagChanges {
  name?: string;
  color?: string | null;
  description?: string | null;
}

const columns = ['t.id', 't.name', 't.color', 't.description', 't.created_at'] as const;

/** Source tags of one database: named, optionally coloured and described labels an operator puts on sources. */
export class SourceTags {
  constructor(
    private readonly db: Db,
    private readonly database: string,
  ) {}

  async list(): Promise<(SourceTag & { source_count: number })[]> {
    const rows = await this.db('source_tags as t')
      .leftJoin('source_tag_links as l', 'l.tag_id', 't.id')
      .groupBy('t.id')
      .orderBy('t.name')
      .select(...columns, this.db.raw('COUNT(l.source_id) AS source_count'));
    return rows.map((row: Omit<SourceTag, 'database_name'> & { source_count: number }) => this.shown(row));
  }

  /** One tag with how many sources carry it; NotFound for an unknown id. */
  async get(id: string): Promise<SourceTag & { source_count: number }> {
    const found = (await this.list()).find((tag) => tag.id === id);
    if (!found) throw NotFound.resource('source_tag', id);
    return found;
  }

  /** Creates the tag, or answers the existing one whose name matches regardless of case. */
  async create(name: string, color: string | null, description: string | null): Promise<SourceTag> {
    const existing = await this.named(name);
    if (existing) return existing;
    const at = new Date().toISOString();
    const id = `tag_${randomBytes(8).toString('hex')}`;
    await this.db('source_tags').insert({ id, name, color, description, created_at: at, updated_at: at });
    return this.shown({ id, name, color, description, created_at: at });
  }

  async update(id: string, changes: TagChanges): Promise<SourceTag> {
    const current = await this.require(id);
    if (changes.name !== undefined && changes.name.toLowerCase() !== current.name.toLowerCase()) {
      if (await this.named(changes.name)) throw new Conflict(`A tag named '${changes.name}' exists`, { field: 'name' });
    }
    const next = { ...current, ...changes };
    await this.db('source_tags').where({ id }).update({
      name: next.name,
      color: next.color,
      description: next.description,
      updated_at: new Date().toISOString(),
    });
    return next;
  }

  async delete(id: string): Promise<void> {
    await this.require(id);
    await this.db('source_tags').where({ id }).delete();
  }

  async ofSource(sourceId: string): Promise<SourceTag[]> {
    const rows = await this.db('source_tag_links as l')
      .join('source_tags as t', 't.id', 'l.tag_id')
      .where('l.source_id', sourceId)
      .orderBy('t.name')
      .select(...columns);
    return rows.map((row: Omit<SourceTag, 'database_name'>) => this.shown(row));
  }

  /** Puts the tag on the source; false when either does not exist. */
  async attach(sourceId: string, tagId: string): Promise<boolean> {
    const [source, tag] = await Promise.all([
      this.db('sources').where({ id: sourceId }).first('id'),
      this.db('source_tags').where({ id: tagId }).first('id'),
    ]);
    if (!source || !tag) return false;
    await this.db('source_tag_links')
      .insert({ source_id: sourceId, tag_id: tagId })
      .onConflict(['source_id', 'tag_id'])
      .ignore();
    return true;
  }

  /** Takes the tag off the source; NotFound when the source does not carry it. */
  async detach(sourceId: string, tagId: string): Promise<void> {
    const removed = await this.db('source_tag_links').where({ source_id: sourceId, tag_id: tagId }).delete();
    if (!removed) throw NotFound.resource('source_tag_assignment', `${sourceId}/${tagId}`);
  }

  private async require(id: string): Promise<SourceTag> {
    const row = await this.db('source_tags as t')
      .where('t.id', id)
      .first(...columns);
    if (!row) throw NotFound.resource('source_tag', id);
    return this.shown(row as Omit<SourceTag, 'database_name'>);
  }

  private async named(name: string): Promise<SourceTag | undefined> {
    const row = await this.db('source_tags as t')
      .whereRaw('lower(t.name) = lower(?)', [name])
      .first(...columns);
    return row ? this.shown(row as Omit<SourceTag, 'database_name'>) : undefined;
  }

  private shown<Row extends Omit<SourceTag, 'database_name'>>(row: Row): Row & { database_name: string } {
    const { id, ...rest } = row;
    return { id, database_name: this.database, ...rest } as Row & { database_name: string };
  }
}
