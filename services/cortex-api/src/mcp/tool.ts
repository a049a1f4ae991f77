import type { Static, TSchema } from '@sinclair/typebox';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Platform } from '@rhizome/core/platform';
import type { RequestScope } from '../http/request-scope.ts';

/** What a tool call works on: the platform, and a scope resolved once for the call (as a route's request). */
export interface ToolContext {
  platform: Platform;
  scope: RequestScope;
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

/** A result as one JSON text block: what every MCP client shows and every model reads. */
export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value ?? null) }] };
}
