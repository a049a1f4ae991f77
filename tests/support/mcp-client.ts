import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestServer } from './server.ts';

export interface ToolAnswer<T = Record<string, unknown>> {
  isError: boolean;
  body: T;
}

/** The SDK's own client over Streamable HTTP to the test server, authenticated with an API key. */
export async function connectHttp(
  server: TestServer,
  key: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'rhizome-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
    }),
  );
  return client;
}

/** Calls a tool and parses its JSON text block. */
export async function callTool<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolAnswer<T>> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  return { isError: Boolean(result.isError), body: JSON.parse(content[0].text) as T };
}

/** A tool's result, failing the test with the error envelope when the call failed. */
export async function toolResult<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const answer = await callTool<T>(client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}
