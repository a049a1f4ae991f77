import { randomBytes } from 'node:crypto';
import { NotFound, Conflict } from '@rhizome/contracts/errors';
import type { Db } from '../storage/index.ts';
import { tagsBySource, type TagRow } from './repo.ts';

/** Source tags of one database: named, optionally coloured labels an operator puts on sources. */
export class SourceTags {
  constructor(private readonly db: Db) {}

  async list(): Promise<(TagRow & { source_count: number })[]> {
    return (await this.db('source_tags as t')
      .leftJoin('source_tag_links as l', 'l.tag_id', 't.id')
      .groupBy('t.id')
      .orderBy('t.name')
      .select('t.id', 't.name', 't.color', this.db.raw('COUNT(l.source_id) AS source_count'))) as (TagRow & {
      source_count: number;
    })[];
  }

  async create(name: string, color: string | null): Promise<TagRow> {
    await this.assertNameFree(name);
    const at = new Date().toISOString();
    const tag = { id: `tag_${randomBytes(8).toString('hex')}`, name, color };
    await this.db('source_tags').insert({ ...tag, created_at: at, updated_at: at });
    return tag;
  }

  async update(id: string, changes: { name?: string; color?: string | null }): Promise<TagRow> {
    const current = await this.require(id);
    if (changes.name !== undefined && changes.name !== current.name) await this.assertNameFree(changes.name);
    const next = { ...current, ...changes };
    await this.db('source_tags')
      .where({ id })
      .update({ name: next.name, color: next.color, updated_at: new Date().toISOString() });
    return next;
  }

  async delete(id: string): Promise<void> {
    await this.require(id);
    await this.db('source_tags').where({ id }).delete();
  }

  async ofSource(sourceId: string): Promise<TagRow[]> {
    return (await tagsBySource(this.db, [sourceId])).get(sourceId)!;
  }

  async attach(sourceId: string, tagId: string): Promise<TagRow[]> {
    await this.require(tagId);
    await this.db('source_tag_links')
      .insert({ source_id: sourceId, tag_id: tagId })
      .onConflict(['source_id', 'tag_id'])
      .ignore();
    return this.ofSource(sourceId);
  }

  async detach(sourceId: string, tagId: string): Promise<TagRow[]> {
    await this.require(tagId);
    await this.db('source_tag_links').where({ source_id: sourceId, tag_id: tagId }).delete();
    return this.ofSource(sourceId);
  }

  private async require(id: string): Promise<TagRow> {
    const tag = (await this.db('source_tags').where({ id }).first('id', 'name', 'color')) as TagRow | undefined;
    if (!tag) throw NotFound.resource('source_tag', id);
    return tag;
  }

  private async assertNameFree(name: string): Promise<void> {
    if (await this.db('source_tags').whereRaw('lower(name) = lower(?)', [name]).first())
      throw new Conflict(`A tag named '${name}' exists`, { field: 'name' });
  }
}
