import { insertRows, type Db } from '../../storage/index.ts';

/** A template a commit or an import creates in its transaction; `properties` is the JSON list of its property definitions. */
export type NewTemplate = {
  id: string;
  name: string;
  template_type: 'node' | 'edge';
  description: string | null;
  icon: string | null;
  color: string | null;
  properties: string;
  is_system: boolean;
  extracted: boolean;
  source_id: string | null;
  created_at: string;
  updated_at: string;
};

/** What telling templates apart by name and type needs; booleans as SQLite stores them (0/1). */
export interface TemplateIdentity {
  id: string;
  name: string;
  template_type: string;
  is_system: number;
  extracted: number;
}

const templateColumns = [
  'id',
  'name',
  'template_type',
  'description',
  'is_system',
  'icon',
  'color',
  'properties',
  'source_id',
  'extracted',
  'created_at',
  'updated_at',
] as const;

/** Inserts templates in multi-row statements. With `skipExisting`, a template whose id is taken stays as it is. */
export async function insertTemplates(
  trx: Db,
  templates: NewTemplate[],
  options: { skipExisting?: boolean } = {},
): Promise<void> {
  await insertRows(
    trx,
    'graph_templates',
    templateColumns,
    templates,
    options.skipExisting ? 'INSERT OR IGNORE' : 'INSERT',
  );
}

/** Every template's identity, oldest first. */
export async function templateIdentities(db: Db): Promise<TemplateIdentity[]> {
  return (await db('graph_templates')
    .select('id', 'name', 'template_type', 'is_system', 'extracted')
    .orderBy('rowid')) as TemplateIdentity[];
}
