import type { Static, TSchema } from '@sinclair/typebox';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Forbidden } from '@rhizome/contracts/errors';
import type { Settings } from '@rhizome/contracts/settings';
import type { Platform } from '@rhizome/core/platform';
import type { RequestScope } from '../http/request-scope.ts';

export type McpMode = Settings['mcp']['mode'];

/** What one session (an HTTP session or a stdio process) was opened with, over the settings. */
export interface McpSessionOptions {
  /** Read or write for this session alone, whatever `mcp.mode` says (`rhizome mcp --mode`). */
  mode?: McpMode;
  /** Documents this session adds are extracted by the server's model unless it says otherwise (`--server-extraction`). */
  autoExtract?: boolean;
}

/** What a tool call works on: the platform, a scope resolved once for the call (as a route's request), its session. */
export interface ToolContext {
  platform: Platform;
  scope: RequestScope;
  session: McpSessionOptions;
}

/**
 * `read`: always offered. `write`: only while `mcp.mode` is `write`. `maintenance`: the only tools
 * offered while migrations are pending.
 */
export type ToolKind = 'read' | 'write' | 'maintenance';

export interface Tool<S extends TSchema = TSchema> {
  name: string;
  /** One line an agent can act on. */
  description: string;
  kind: ToolKind;
  input: S;
  run(args: Static<S>, context: ToolContext): Promise<unknown>;
}

/** Keeps the argument type of `run` tied to the schema while the list holds tools of every schema. */
export function tool<S extends TSchema>(definition: Tool<S>): Tool {
  return definition as unknown as Tool;
}

/**
 * A tool kept under its earlier Rhizome name for one release, beside the tool that replaces it; its
 * description says which, so an agent moves over.
 */
export function deprecated(replacement: string, definition: Tool): Tool {
  return { ...definition, description: `Deprecated: use ${replacement}. ${definition.description}` };
}

/** The mode a session works in: its own when it was opened with one, else the setting's. */
export function sessionMode(platform: Platform, session: McpSessionOptions): McpMode {
  return session.mode ?? platform.settings.get().mcp.mode;
}

/** What a call that would change the knowledge base gets from a read-only session. */
export function readOnlyRefusal(toolName: string): Forbidden {
  return new Forbidden(
    `${toolName} changes the knowledge base, and the MCP server is read-only: set mcp.mode to "write" (PATCH /api/v1/settings) or start the session with --mode write to allow it`,
    { setting: 'mcp.mode' },
  );
}

/** A result as one JSON text block: what every MCP client shows and every model reads. */
export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value ?? null) }] };
}
