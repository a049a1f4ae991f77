import fs from 'node:fs';
import { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import { mcpModeHeader, mcpServerExtractionHeader } from '@rhizome/contracts/api/mcp';
import { CliFailure, ExitCode, failureOf } from './exit-codes.ts';
import type { Io, Out } from './output.ts';
import { remoteOf, type Remote } from './remote.ts';

export interface McpOptions {
  database?: string;
  url?: string;
  apiKey?: string;
  mode?: 'read' | 'write';
  serverExtraction?: boolean;
}

/**
 * The stdout the protocol writes to. Everything else this process prints (the service logger's console
 * lines) is sent to stderr instead, where an MCP client shows it as the server's log.
 */
function protocolStdout(): Writable {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      write(chunk, callback);
    },
  });
}

/**
 * The server a relay talks to, checked before the agent is served: a missing key, a refused key or no
 * server at the URL end the command with its message and exit code instead of failing every later call.
 */
async function checkedRemote(options: McpOptions, io: Io): Promise<Remote> {
  if (options.database)
    throw new CliFailure(
      "--database applies to the data directory; with --url the server's active database is used",
      ExitCode.usage,
    );
  if (!URL.canParse(options.url as string)) throw new CliFailure(`--url '${options.url}' is not a URL`, ExitCode.usage);
  const remote = remoteOf({ url: options.url, apiKey: options.apiKey }, io);
  if (!remote.apiKey)
    throw new CliFailure(
      `--url needs an API key: pass --api-key, set RHIZOME_API_KEY, or run 'rhizome login --url ${remote.url}'`,
      ExitCode.unauthorized,
    );
  try {
    await remote.client.call(authEndpoints.me);
  } catch (error) {
    throw failureOf(error, remote.url);
  }
  return remote;
}

/** `rhizome mcp`: serves until stdin closes; returns the exit code. */
export async function runMcp(options: McpOptions, io: Io): Promise<number> {
  const remote = options.url ? await checkedRemote(options, io) : null;
  const stdio = new StdioServerTransport(process.stdin, protocolStdout());
  return remote
    ? relay(stdio, remote.url, remote.apiKey as string, options, io.err)
    : serveDirect(stdio, options.database, { mode: options.mode, autoExtract: options.serverExtraction });
}

/** Every message both ways between the agent on stdio and the server's HTTP endpoint. */
async function relay(stdio: Transport, url: string, apiKey: string, session: McpOptions, err: Out): Promise<number> {
  const endpoint = new URL(`${url}/api/v1/mcp`);
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
  if (session.mode) headers[mcpModeHeader] = session.mode;
  if (session.serverExtraction) headers[mcpServerExtractionHeader] = 'true';
  const remote = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } });
  const closed = new Promise<number>((resolve) => {
    stdio.onclose = () => {
      void remote.close().finally(() => resolve(0));
    };
    remote.onclose = () => {
      void stdio.close().finally(() => resolve(0));
    };
  });
  stdio.onmessage = (message) => {
    remote.send(message).catch((error: unknown) => {
      const reason = `${endpoint.href}: ${error instanceof Error ? error.message : String(error)}`;
      err(`rhizome mcp: ${reason}`);
      // A request the server never saw is answered here, so the agent is not left waiting for it.
      if ('method' in message && 'id' in message)
        void stdio.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: ErrorCode.InternalError, message: `The Rhizome server did not take the request: ${reason}` },
        });
    });
  };
  remote.onmessage = (message) => {
    void stdio.send(message);
  };
  remote.onerror = (error) => err(`rhizome mcp: ${endpoint.href}: ${error.message}`);
  await remote.start();
  await stdio.start();
  return closed;
}

/**
 * The data directory served in this process (API services, worker, background jobs; no HTTP). A new
 * database is migrated as `rhizome serve` would; an existing one with migrations pending is opened as it
 * is, and the server offers only the upgrade tools until they are applied.
 */
async function serveDirect(
  stdio: Transport,
  database: string | undefined,
  session: { mode?: McpOptions['mode']; autoExtract?: boolean },
): Promise<number> {
  const [
    { createPlatform, startBackgroundJobs },
    { DataPaths, resolveDataDir },
    { lockDataDir, FileLock },
    { createNeuronWorker },
    { createMcpServer },
  ] = await Promise.all([
    import('@rhizome/core/platform'),
    import('@rhizome/core/paths'),
    import('@rhizome/core/runtime'),
    import('@rhizome/neuron-worker'),
    import('@rhizome/cortex-api/mcp/server'),
  ]);
  const paths = new DataPaths(resolveDataDir(process.env));
  const lock = await lockDataDir(paths);
  if (!(lock instanceof FileLock))
    throw new CliFailure(`${lock.refusal}; to use the running server, pass --url (and --api-key)`);
  const existing = fs.existsSync(paths.databasesDir) && fs.readdirSync(paths.databasesDir).length > 0;
  const platform = await createPlatform({ service: 'mcp', migrationPolicy: existing ? 'none' : 'apply' });
  try {
    if (database && database !== platform.databases.currentName()) await platform.databases.switchTo(database);
  } catch (error) {
    await platform.close();
    await lock.release();
    throw new CliFailure((error as Error).message, ExitCode.notFound);
  }
  const worker = createNeuronWorker({ platform });
  // Listed among the deployment's nodes as what it is, not as an API server.
  const background = startBackgroundJobs(platform, 'rhizome-mcp');
  const server = createMcpServer(platform, session);
  // On the transport: the server's own onclose is its cleanup, which connect() chains after this.
  const closed = new Promise<void>((resolve) => {
    stdio.onclose = resolve;
  });
  await server.connect(stdio);
  await closed;
  await background.stop();
  await worker.stop();
  await platform.close();
  await lock.release();
  return 0;
}
