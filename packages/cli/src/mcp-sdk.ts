/**
 * The MCP SDK's client side, for the repository's tests and benchmarks, which have no dependency of
 * their own on the SDK (the CLI has it).
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
