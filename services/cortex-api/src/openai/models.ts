import { ApiError } from '@rhizome/contracts/errors';
import { modelName, parseModelName, type ModelBody } from '@rhizome/contracts/api/openai';
import { searchTypes, type SearchType } from '@rhizome/contracts/api/search';
import type { DatabaseHandle, Platform } from '@rhizome/core/platform';

const created = (modified: string | null) => Math.floor((modified ? Date.parse(modified) : Date.now()) / 1000);

/** The engine's own retrieval first, then one model per search mode. */
const modes: (SearchType | null)[] = [null, ...searchTypes];

/** Every mode for the active database ('rhizome', 'rhizome-keyword', …), then every mode for each database by name. */
export function listModels(platform: Platform): ModelBody[] {
  const databases = platform.databases.list();
  const active = databases.find((database) => database.name === platform.databases.currentName());
  const entries = [
    ...modes.map((mode) => ({ id: modelName({ mode, database: null }), modified: active?.last_modified ?? null })),
    ...databases.flatMap((database) =>
      modes.map((mode) => ({ id: modelName({ mode, database: database.name }), modified: database.last_modified })),
    ),
  ];
  return entries.map(({ id, modified }) => ({ id, object: 'model', created: created(modified), owned_by: 'rhizome' }));
}

const unknownModel = (model: string, why: string) =>
  new ApiError(404, 'MODEL_NOT_FOUND', `The model '${model}' does not exist: ${why} (GET /models lists them)`, {
    field: 'model',
    openai_code: 'model_not_found',
  });

export interface ModelTarget {
  database: DatabaseHandle;
  /** The search mode the answer's retrieval uses; null: each retrieval tool's own. */
  searchMode: SearchType | null;
}

/** The database and search mode a model names: 'rhizome[-<mode>]' for the active database, '…:<database>' for the one named. */
export async function targetOfModel(
  platform: Platform,
  model: string,
  active: () => Promise<DatabaseHandle>,
): Promise<ModelTarget> {
  const choice = parseModelName(model);
  if (!choice)
    throw unknownModel(
      model,
      `use 'rhizome' or 'rhizome-<${searchTypes.join('|')}>', optionally followed by ':<database>'`,
    );
  const { mode, database: name } = choice;
  if (name === null) return { database: await active(), searchMode: mode };
  if (!platform.databases.list().some((database) => database.name === name))
    throw unknownModel(model, `there is no database '${name}'`);
  return { database: { name, db: await platform.databases.connection(name) }, searchMode: mode };
}
