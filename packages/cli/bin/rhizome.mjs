#!/usr/bin/env node
// The `rhizome` command: loads the TypeScript sources through tsx, then runs the CLI.
import { register } from 'tsx/esm/api';

// A reader that stopped reading (`rhizome search … | head`) took all it wanted: end quietly, as other commands do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
}
register();
const { runCli } = await import('../src/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
