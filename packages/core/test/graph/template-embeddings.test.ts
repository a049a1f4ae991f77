import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { seedSystemTemplates, systemTemplates } from '../../src/graph/system-templates.ts';
import {
  regenerateTemplateEmbeddings,
  templateText,
  type TemplateEmbedder,
} from '../../src/graph/templates/embeddings.ts';
import { findTemplate } from '../../src/graph/templates/repo.ts';

let dir: string;
let db: Db;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-template-embeddings-'));
  db = openSqlite(path.join(dir, 'app.db'));
  await new Migrator(path.join(dir, 'backups')).apply(db);
  await seedSystemTemplates(db);
});

afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const storedEmbeddings = async () =>
  (await db('graph_templates')
    .whereNotNull('embedding')
    .orderBy('id')
    .select('id', 'embedding', 'embedding_model', 'embedding_dimensions')) as {
    id: string;
    embedding: string;
    embedding_model: string;
    embedding_dimensions: number;
  }[];

describe('template embeddings', () => {
  it('with an embedder stores one vector per template, in batches, with the model and dimensions', async () => {
    const calls: string[][] = [];
    const embedder: TemplateEmbedder = {
      model: 'fake-3d',
      embed: async (texts) => {
        calls.push(texts);
        return texts.map((text) => [text.length, 1, 0]);
      },
    };
    const result = await regenerateTemplateEmbeddings(db, embedder, async () => {}, 3);
    expect(result).toEqual({
      processed: systemTemplates.length,
      skipped: 0,
      message: `embedded ${systemTemplates.length} template(s) with fake-3d`,
    });
    expect(calls.map((batch) => batch.length)).toEqual([3, 3, 1]);
    const stored = await storedEmbeddings();
    expect(stored.map((row) => row.id)).toEqual(systemTemplates.map((template) => template.id).sort());
    const item = stored.find((row) => row.id === 'system_template_item')!;
    const text = templateText((await findTemplate(db, 'system_template_item'))!);
    expect(item).toEqual({
      id: 'system_template_item',
      embedding: JSON.stringify([text.length, 1, 0]),
      embedding_model: 'fake-3d',
      embedding_dimensions: 3,
    });
    expect(text).toBe('Entity type: Item\nA generic knowledge item\nProperties: definition (text): What the item is');
  });

  it('refuses an embedder that returns the wrong number of vectors', async () => {
    const short: TemplateEmbedder = { model: 'broken', embed: async () => [[1]] };
    await expect(regenerateTemplateEmbeddings(db, short, async () => {}, 2)).rejects.toThrow(
      'returned 1 vectors for 2 texts',
    );
  });
});
