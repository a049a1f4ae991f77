import type { Command } from 'commander';
import type { RemoteOptions } from './remote.ts';
import type { CommandRunner } from './runner.ts';

const help = `
Without --url it opens the data directory itself, like 'rhizome serve' (stop a running server first, or use
--url). With --url URL it relays to that server's /api/v1/mcp, authenticated with --api-key KEY (or
RHIZOME_API_KEY, or the key 'rhizome login' stored for that URL). The protocol runs on stdin/stdout, logs go
to stderr. The tools are read-only unless the mcp.mode setting is "write".`;

/** `rhizome mcp`: registered here, loaded (with the protocol SDK and the service) only when it runs. */
export function registerMcp(program: Command, runner: CommandRunner): void {
  program
    .command('mcp')
    .description('Serve the Model Context Protocol on stdio for an agent (Claude Desktop, Claude Code, Cursor …)')
    .option('--database <name>', 'make this database the active one first (not with --url)')
    .addHelpText('after', help)
    .action(
      runner.local(async (_options: unknown, command: Command) => {
        const { runMcp } = await import('./mcp.ts');
        return runMcp(command.optsWithGlobals<RemoteOptions & { database?: string }>(), runner.io);
      }),
    );
}
