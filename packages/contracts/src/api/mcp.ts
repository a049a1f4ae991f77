import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';

const tag = 'mcp';

/** The header an initialize request may send to open its session read-only or writable, whatever `mcp.mode` says. */
export const mcpModeHeader = 'x-rhizome-mcp-mode';
/** The header an initialize request may send (`true`) so that documents its session adds are extracted by the server. */
export const mcpServerExtractionHeader = 'x-rhizome-mcp-server-extraction';
const session = 'the `Mcp-Session-Id` header the initialize response returned';

/** One JSON-RPC 2.0 message of the Model Context Protocol (or a batch of them), as an MCP client sends it. */
const JsonRpcMessage = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  id: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
  method: Type.Optional(
    Type.String({ description: 'initialize, tools/list, tools/call, prompts/get, resources/read, …' }),
  ),
  params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(
    Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) }),
  ),
});

/**
 * The Streamable HTTP transport of the MCP server. It is served by the protocol SDK rather than the
 * route table (its bodies are JSON-RPC, its answers event streams), so these contracts only document it.
 */
export const mcpEndpoints = {
  post: endpoint({
    method: 'POST',
    path: '/mcp',
    tag,
    status: 200,
    errors: [400, 401, 404, 406, 413, 422, 503],
    produces: 'text/event-stream',
    body: Type.Union([JsonRpcMessage, Type.Array(JsonRpcMessage, { minItems: 1 })]),
    summary:
      'Model Context Protocol over Streamable HTTP: an `initialize` request without a session opens one (its id comes back in the ' +
      `Mcp-Session-Id header); every later message carries ${session}. Requests are answered on an event stream (JSON-RPC responses as \`data:\` frames), ` +
      'notifications and responses with 202. A session answers only the API key (or account) that opened it; 404 for an unknown or ended one. ' +
      `An initialize request may send \`${mcpModeHeader}: read|write\` to open its session in that mode whatever mcp.mode says, and ` +
      `\`${mcpServerExtractionHeader}: true\` to have the documents it adds extracted by the server's model (422 for other values)`,
  }),
  stream: endpoint({
    method: 'GET',
    path: '/mcp',
    tag,
    status: 200,
    errors: [400, 401, 404, 406],
    produces: 'text/event-stream',
    summary: `The session's event stream of server-initiated messages (tools/list_changed after a settings change or an upgrade), for ${session}`,
  }),
  end: endpoint({
    method: 'DELETE',
    path: '/mcp',
    tag,
    status: 200,
    errors: [400, 401, 404],
    summary: `Ends the session named by ${session}; sessions idle for an hour end by themselves`,
  }),
};
