import { Option, type Command } from 'commander';
import { loadMcp } from './local-modules.ts';
import type { McpOptions } from './mcp.ts';
import type { RemoteOptions } from './remote.ts';
import type { CommandRunner } from './runner.ts';

const help = `
Without --url it opens the data directory itself, like 'rhizome serve' (stop a running server first, or use
--url). With --url URL it relays to that server's /api/v1/mcp, authenticated with --api-key KEY (or
RHIZOME_API_KEY, or the key 'rhizome login' stored for that URL). The protocol runs on stdin/stdout, logs go
to stderr. The tools are read-only unless the mcp.mode setting is "write" or --mode write is given. A document
the agent adds is only indexed, for the agent to extract, unless mcp.auto_extract is on or --server-extraction
is given.`;

/** `rhizome mcp`: registered here, loaded (with the protocol SDK and the service) only when it runs. */
export function registerMcp(program: Command, runner: CommandRunner): void {
  program
    .command('mcp')
    .description('Serve the Model Context Protocol on stdio for an agent (Claude Desktop, Claude Code, Cursor …)')
    .option('--database <name>', 'make this database the active one first (not with --url)')
    .addOption(
      new Option('-m, --mode <mode>', 'read-only or writable for this session, whatever mcp.mode says').choices([
        'read',
        'write',
      ]),
    )
    .option('--server-extraction', "documents this session adds are extracted by the server's model, not the agent")
    .addHelpText('after', help)
    .action(
      runner.local(async (_options: unknown, command: Command) => {
        const { runMcp } = await loadMcp();
        return runMcp(command.optsWithGlobals<RemoteOptions & McpOptions>(), runner.io);
      }),
    );
}
