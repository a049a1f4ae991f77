import { Invalid, NotFound } from '@rhizome/contracts/errors';
import type { Db } from '../../storage/index.ts';
import { partialSchema, schemaProblems } from '../json-schema.ts';
import { bool, fromJson, newId, now, toJson, type Flag } from '../rows.ts';
import { findSystemTool, systemToolDetail } from './catalogue.ts';
import type { SystemToolDefinition } from './types.ts';

export interface UserToolRow {
  id: string;
  name: string;
  description: string | null;
  system_tool_id: string;
  configuration: string;
  tags: string | null;
  is_active: Flag;
  created_at: string;
  updated_at: string;
}

export interface UserToolInput {
  name: string;
  description?: string | null;
  system_tool_id: string;
  configuration: Record<string, unknown>;
  tags?: string[] | null;
  is_active?: boolean;
}

export type UserToolPatch = Partial<Omit<UserToolInput, 'system_tool_id'>>;

export interface UserTool {
  id: string;
  name: string;
  description: string | null;
  system_tool_id: string;
  configuration: Record<string, unknown>;
  tags: string[] | null;
  is_active: boolean;
  created_by: null;
  created_at: string;
  updated_at: string;
  system_tool: ReturnType<typeof systemToolDetail>;
}

/** A user tool is a system tool with preset configuration: a step using it completes and overrides it. */
export function toUserTool(row: UserToolRow): UserTool {
  const system = findSystemTool(row.system_tool_id);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    system_tool_id: row.system_tool_id,
    configuration: fromJson(row.configuration, {}),
    tags: fromJson(row.tags, null),
    is_active: bool(row.is_active),
    created_by: null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    system_tool: systemToolDetail(system!),
  };
}

/**
 * The configuration checked against the system tool's input schema, required fields excepted (a step
 * may supply them): wrong types and values are refused with 422 naming the field.
 */
function checkConfiguration(tool: SystemToolDefinition, configuration: Record<string, unknown>): void {
  const problems = schemaProblems(partialSchema(tool.inputSchema), structuredClone(configuration));
  if (problems.length) {
    throw new Invalid(
      problems.map((problem) => ({ loc: ['body', 'configuration'], msg: problem, type: 'value_error' })),
      `configuration does not match the input schema of ${tool.id}: ${problems.join('; ')}`,
    );
  }
}

function requireSystemTool(id: string): SystemToolDefinition {
  const tool = findSystemTool(id);
  if (!tool)
    throw new Invalid(
      [{ loc: ['body', 'system_tool_id'], msg: `unknown system tool '${id}'`, type: 'value_error' }],
      `unknown system tool '${id}'`,
    );
  return tool;
}

export async function findUserToolRow(db: Db, id: string): Promise<UserToolRow | undefined> {
  return db('user_tools').where({ id }).first();
}

export async function getUserTool(db: Db, id: string): Promise<UserTool> {
  const row = await findUserToolRow(db, id);
  if (!row) throw NotFound.resource('tool', id);
  return toUserTool(row);
}

export async function listUserTools(
  db: Db,
  filter: { systemToolId?: string; isActive?: boolean },
  window: { offset: number; limit: number },
) {
  const query = db('user_tools');
  if (filter.systemToolId !== undefined) query.where({ system_tool_id: filter.systemToolId });
  if (filter.isActive !== undefined) query.where({ is_active: filter.isActive });
  const [{ n }] = await query.clone().count({ n: '*' });
  const rows = await query
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
    .offset(window.offset)
    .limit(window.limit);
  return { items: rows.map(toUserTool), total: Number(n) };
}

export async function createUserTool(db: Db, input: UserToolInput): Promise<UserTool> {
  checkConfiguration(requireSystemTool(input.system_tool_id), input.configuration);
  const at = now();
  const row: UserToolRow = {
    id: newId('tool'),
    name: input.name,
    description: input.description ?? null,
    system_tool_id: input.system_tool_id,
    configuration: JSON.stringify(input.configuration),
    tags: toJson(input.tags),
    is_active: input.is_active === false ? 0 : 1,
    created_at: at,
    updated_at: at,
  };
  await db('user_tools').insert(row);
  return toUserTool(row);
}

export async function updateUserTool(db: Db, id: string, patch: UserToolPatch): Promise<UserTool> {
  const row = await findUserToolRow(db, id);
  if (!row) throw NotFound.resource('tool', id);
  if (patch.configuration !== undefined) checkConfiguration(requireSystemTool(row.system_tool_id), patch.configuration);
  const changes: Partial<UserToolRow> = { updated_at: now() };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.description !== undefined) changes.description = patch.description;
  if (patch.configuration !== undefined) changes.configuration = JSON.stringify(patch.configuration);
  if (patch.tags !== undefined) changes.tags = toJson(patch.tags);
  if (patch.is_active !== undefined) changes.is_active = patch.is_active ? 1 : 0;
  await db('user_tools').where({ id }).update(changes);
  return toUserTool({ ...row, ...changes });
}

export async function deleteUserTool(db: Db, id: string): Promise<void> {
  if (!(await db('user_tools').where({ id }).delete())) throw NotFound.resource('tool', id);
}
