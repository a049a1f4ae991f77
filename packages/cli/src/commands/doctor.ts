import type { Command } from 'commander';
import { ExitCode } from '../exit-codes.ts';
import { loadDoctorChecks } from '../local-modules.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import type { CheckStatus } from './doctor-checks.ts';

const label: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', info: 'info' };

/** Every check, one line each with what to do when it is not ok; exits 0 only when none fails. */
async function doctor(remote: Remote): Promise<number> {
  const checks = await (await loadDoctorChecks()).doctorChecks(remote);
  const failed = checks.filter((item) => item.status === 'fail').length;
  if (remote.json) printJson(remote.io, { ok: failed === 0, url: remote.url, checks });
  else {
    const width = Math.max(...checks.map((item) => item.name.length));
    for (const item of checks) {
      remote.io.out(`${label[item.status]}  ${item.name.padEnd(width)}  ${item.message}`);
      if (item.fix) remote.io.out(`      ${' '.repeat(width)}  → ${item.fix}`);
    }
    const count = (status: CheckStatus) => checks.filter((item) => item.status === status).length;
    remote.io.out(`\n${count('ok')} ok, ${count('warn')} warning(s), ${failed} failed`);
  }
  return failed ? ExitCode.failed : ExitCode.ok;
}

export function registerDoctor(program: Command, runner: CommandRunner): void {
  program
    .command('doctor')
    .description(
      'Check this machine and the server (data directory, disk, server, key, model server, queue, migrations)',
    )
    .addHelpText('after', '\nExits 0 when no check fails (warnings allowed), 1 otherwise.')
    .action(runner.remote((remote) => doctor(remote)));
}
