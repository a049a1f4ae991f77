import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode as RpcErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { Conflict } from '@rhizome/contracts/errors';
import type { Settings } from '@rhizome/contracts/settings';
import type { TSchema } from '@sinclair/typebox';
import type { Platform } from '@rhizome/core/platform';
import { RequestScope } from '../http/request-scope.ts';
import { compileValidator } from '../http/validation.ts';
import { extractSourceMessages, extractSourcePrompt } from './prompts.ts';
import { listResources, readResource, resourceTemplates } from './resources.ts';
import { jsonResult, readOnlyRefusal, sessionMode, type McpSessionOptions, type Tool } from './tool.ts';
import { toolError } from './tool-errors.ts';
import { allTools, pendingMigrations } from './tools/index.ts';

const validators = new Map(allTools.map((tool) => [tool.name, compileValidator<unknown>(tool.input, 'body')]));

/**
 * A tool's input schema as agents read it: an argument with a default is optional to them (validation
 * fills it in), so it is not listed as required.
 */
function announcedInput(input: TSchema): McpTool['inputSchema'] {
  const schema = input as unknown as McpTool['inputSchema'] & { properties?: Record<string, { default?: unknown }> };
  const required = (schema.required ?? []).filter((name) => schema.properties?.[name]?.default === undefined);
  const { required: _all, ...rest } = schema;
  return required.length ? { ...rest, required } : rest;
}

const descriptors = new Map<string, McpTool>(
  allTools.map((tool) => [
    tool.name,
    {
      name: tool.name,
      description: tool.description,
      inputSchema: announcedInput(tool.input),
      annotations: {
        readOnlyHint: tool.kind === 'read',
        destructiveHint: tool.name.startsWith('delete_') || tool.name === 'remove_document',
      },
    },
  ]),
);

/**
 * Whether the active database's schema is behind. Once a database is seen up to date it stays so for
 * this process (migrations only ever apply forward), so the check costs one query per database.
 */
class SchemaState {
  private readonly current = new Set<string>();

  constructor(private readonly platform: Platform) {}

  async behind(): Promise<boolean> {
    const name = this.platform.databases.currentName();
    if (this.current.has(name)) return false;
    if ((await pendingMigrations(this.platform)).length) return true;
    this.current.add(name);
    return false;
  }
}

const schemaStates = new WeakMap<Platform, SchemaState>();

/** The tools offered now: the maintenance ones while the schema is behind; else read ones, and write ones in write mode. */
async function offered(platform: Platform, schema: SchemaState, session: McpSessionOptions): Promise<Tool[]> {
  if (await schema.behind()) return allTools.filter((tool) => tool.kind === 'maintenance');
  const write = sessionMode(platform, session) === 'write';
  return allTools.filter((tool) => tool.kind === 'read' || (write && tool.kind === 'write'));
}

/** Why a tool that exists is not offered now, as the refusal its call gets. */
async function refusal(tool: Tool, platform: Platform, schema: SchemaState): Promise<Error> {
  if (await schema.behind()) {
    return new Conflict(
      `The database schema has pending migrations: only upgrade_status and apply_upgrade work until apply_upgrade is called`,
      { pending: await pendingMigrations(platform) },
      'UPGRADE_REQUIRED',
    );
  }
  if (tool.kind === 'write') return readOnlyRefusal(tool.name);
  return new Conflict(`${tool.name} is only offered while migrations are pending`);
}

/**
 * An MCP server over a platform: the same services as the REST routes, tools offered per `mcp.mode`
 * (or the session's own mode) and schema state (re-read on every listing and call, so a settings change or an upgrade applies at
 * once, and announced as `notifications/tools/list_changed` when `mcp.mode` switches), the extraction
 * prompt, and sources and nodes as resources. One per session or stdio process; closing it stops the watch.
 */
export function createMcpServer(platform: Platform, session: McpSessionOptions = {}): Server {
  const server = new Server(
    { name: 'rhizome', title: 'Rhizome knowledge graph', version: platform.version },
    {
      capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} },
      instructions:
        'Rhizome is a knowledge graph built from documents. Start with graphrag_search for questions, then get_node_context or get_chunk to quote sources (cite source, chunk_id and page).',
    },
  );
  let schema = schemaStates.get(platform);
  if (!schema) schemaStates.set(platform, (schema = new SchemaState(platform)));
  const state = schema;
  // The schema's own change is announced by the upgrade tool that made it; a settings change from here.
  const stopWatching = platform.settings.onChange((next: Settings, prev: Settings) => {
    if (!session.mode && next.mcp.mode !== prev.mcp.mode) void server.sendToolListChanged().catch(() => undefined);
  });
  server.onclose = stopWatching;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await offered(platform, state, session)).map((tool) => descriptors.get(tool.name) as McpTool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = allTools.find((candidate) => candidate.name === request.params.name);
    if (!tool) throw new McpError(RpcErrorCode.InvalidParams, `Unknown tool '${request.params.name}'`);
    try {
      if (!(await offered(platform, state, session)).includes(tool)) throw await refusal(tool, platform, state);
      const args = (validators.get(tool.name) as (value: unknown) => unknown)(request.params.arguments ?? {});
      const wasBehind = tool.kind === 'maintenance';
      const result = jsonResult(
        await tool.run(args as never, { platform, scope: new RequestScope(platform), session }),
      );
      if (wasBehind) await server.sendToolListChanged().catch(() => undefined);
      return result;
    } catch (error) {
      return toolError(error, tool.name, platform.logger);
    }
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [extractSourcePrompt] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name !== extractSourcePrompt.name)
      throw new McpError(RpcErrorCode.InvalidParams, `Unknown prompt '${request.params.name}'`);
    return asRpcError(() => extractSourceMessages(request.params.arguments));
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: await listResources(new RequestScope(platform)),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) =>
    asRpcError(() => readResource(new RequestScope(platform), request.params.uri)),
  );
  return server;
}

/** A refusal outside a tool call (a prompt, a resource) as the protocol's error with the API's message. */
async function asRpcError<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error && 'kind' in error) throw new McpError(RpcErrorCode.InvalidParams, error.message);
    throw error;
  }
}
