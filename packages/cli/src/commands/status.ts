import { opsEndpoints } from '@rhizome/contracts/api/ops';
import type { Command } from 'commander';
import { ExitCode } from '../exit-codes.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';

/** The server's health and the active database's counts; exits 1 when the server reports itself unhealthy. */
async function status(remote: Remote): Promise<number> {
  const [health, counts] = await Promise.all([
    remote.client.call(opsEndpoints.health),
    remote.client.call(opsEndpoints.counts),
  ]);
  if (remote.json) printJson(remote.io, { url: remote.url, health, counts });
  else {
    remote.io.out(`Rhizome ${health.version} at ${remote.url}: ${health.status}`);
    remote.io.out(
      `Database '${counts.database}': ${Object.entries(counts.counts)
        .map(([name, count]) => `${count} ${name}`)
        .join(', ')}`,
    );
    for (const [name, subsystem] of Object.entries(health.subsystems))
      remote.io.out(`  ${name.padEnd(14)} ${subsystem.status}${subsystem.message ? ` (${subsystem.message})` : ''}`);
  }
  return health.healthy ? ExitCode.ok : ExitCode.failed;
}

/** Every health check of the server, one line each; exits 0 only when every one passes. */
async function health(remote: Remote): Promise<number> {
  const report = await remote.client.call(opsEndpoints.health);
  const failing = Object.entries(report.checks).filter(([, check]) => check.status !== 'ok');
  if (remote.json) printJson(remote.io, report);
  else
    for (const [name, check] of Object.entries(report.checks))
      remote.io.out(`${check.status === 'ok' ? 'ok  ' : 'FAIL'} ${name.padEnd(14)} ${check.status}: ${check.message}`);
  return failing.length ? ExitCode.failed : ExitCode.ok;
}

export function registerStatus(program: Command, runner: CommandRunner): void {
  program
    .command('status')
    .description("The server's health and the active database's counts")
    .action(runner.remote((remote) => status(remote)));
  program
    .command('health')
    .description("The server's health checks; exits 0 only when every one passes, 1 otherwise")
    .action(runner.remote((remote) => health(remote)));
}
