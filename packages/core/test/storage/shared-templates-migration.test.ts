import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { shippedMigrations } from '../../src/storage/migrations/index.ts';
import { seedSystemTemplates } from '../../src/graph/system-templates.ts';
import { extractedTemplateId } from '../../src/extraction/commit/templates.ts';

const legacyId = (sourceId: string, type: string, key: string) =>
  `tpl_${createHash('sha256').update(`${sourceId}:${type}:${key}`).digest('hex').slice(0, 24)}`;
const now = '2026-01-01T00:00:00.000Z';

describe('migration 0011: one template per extracted type', () => {
  const opened: Db[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.destroy();
  });

  it('merges the per-source duplicates onto the system or one shared template, keeping every node typed and every user template', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-migration-'));
    const db = openSqlite(path.join(dir, 'app.db'));
    opened.push(db);
    const before = shippedMigrations.filter((migration) => migration.name < '0011');
    await new Migrator(path.join(dir, 'backups'), before).apply(db);
    await seedSystemTemplates(db);

    const template = (id: string, name: string, type: 'node' | 'edge', sourceId: string | null) => ({
      id,
      name,
      template_type: type,
      description: `Extracted ${name}`,
      is_system: false,
      properties: '[]',
      source_id: sourceId,
      created_at: now,
      updated_at: now,
    });
    const sources = ['src_a', 'src_b', 'src_c'];
    await db('sources').insert(
      sources.map((id) => ({ id, title: id, status: 'committed', created_at: now, updated_at: now })),
    );
    await db('graph_templates').insert([
      ...sources.map((id) => template(legacyId(id, 'node', 'person'), 'Person', 'node', id)),
      ...sources.map((id) => template(legacyId(id, 'node', 'film'), id === 'src_b' ? 'film' : 'Film', 'node', id)),
      ...sources.map((id) => template(legacyId(id, 'edge', 'born in'), 'born_in', 'edge', id)),
      // A template a user made for a source (POST /templates with source_id): not extraction's, left alone.
      template('tpl_user_made', 'Person', 'node', 'src_a'),
    ]);
    const node = (id: string, templateId: string) => ({
      id,
      template_id: templateId,
      label: id,
      name_key: id,
      properties: '{}',
      extracted: true,
      created_at: now,
      updated_at: now,
    });
    await db('graph_nodes').insert([
      ...sources.map((id) => node(`node_person_${id}`, legacyId(id, 'node', 'person'))),
      ...sources.map((id) => node(`node_film_${id}`, legacyId(id, 'node', 'film'))),
      node('node_user', 'tpl_user_made'),
    ]);
    await db('node_sources').insert(
      sources.flatMap((id) => [
        { node_id: `node_person_${id}`, source_id: id },
        { node_id: `node_film_${id}`, source_id: id },
      ]),
    );
    await db('graph_edges').insert(
      sources.map((id) => ({
        id: `edge_${id}`,
        template_id: legacyId(id, 'edge', 'born in'),
        source_node_id: `node_person_${id}`,
        target_node_id: `node_film_${id}`,
        label: 'born_in',
        properties: '{}',
        extracted: true,
        created_at: now,
        updated_at: now,
      })),
    );
    await db('edge_sources').insert(sources.map((id) => ({ edge_id: `edge_${id}`, source_id: id })));

    await new Migrator(path.join(dir, 'backups'), shippedMigrations).apply(db);

    const film = extractedTemplateId('node', 'film');
    const bornIn = extractedTemplateId('edge', 'born in');
    const remaining = (await db('graph_templates')
      .where({ is_system: false })
      .orderBy('id')
      .select('id', 'name', 'extracted', 'source_id')) as { id: string }[];
    expect(remaining).toEqual(
      expect.arrayContaining([
        { id: film, name: 'Film', extracted: 1, source_id: null },
        { id: bornIn, name: 'born_in', extracted: 1, source_id: null },
        { id: 'tpl_user_made', name: 'Person', extracted: 0, source_id: 'src_a' },
      ]),
    );
    expect(remaining).toHaveLength(3);
    const typed = async (table: string) =>
      Object.fromEntries(
        ((await db(table).select('id', 'template_id')) as { id: string; template_id: string }[]).map((row) => [
          row.id,
          row.template_id,
        ]),
      );
    expect(await typed('graph_nodes')).toEqual({
      node_person_src_a: 'system_template_person',
      node_person_src_b: 'system_template_person',
      node_person_src_c: 'system_template_person',
      node_film_src_a: film,
      node_film_src_b: film,
      node_film_src_c: film,
      node_user: 'tpl_user_made',
    });
    expect(new Set(Object.values(await typed('graph_edges')))).toEqual(new Set([bornIn]));
    const links = (await db('template_sources')
      .where({ template_id: film })
      .orderBy('source_id')
      .pluck('source_id')) as string[];
    expect(links).toEqual(sources);
    expect(
      await db('template_sources').where({ template_id: 'system_template_person' }).pluck('source_id'),
    ).toHaveLength(3);
  });
});
