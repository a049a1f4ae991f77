import { authEndpoints } from '@rhizome/contracts/api/auth';
import type { Command } from 'commander';
import { printJson, table } from '../output.ts';
import type { CommandRunner } from '../runner.ts';

export function registerKeys(program: Command, runner: CommandRunner): void {
  const key = program.command('key').description('Create, list and revoke API keys');
  key
    .command('create')
    .description('Create an API key; its secret is shown once')
    .argument('<name>')
    .action(
      runner.remote(async (remote, name: string) => {
        const created = await remote.client.call(authEndpoints.createKey, { body: { name } });
        if (remote.json) return printJson(remote.io, created);
        remote.io.out(created.key);
        remote.io.err(`Created key ${created.id} ('${created.name}'): store it now, it is not shown again.`);
      }),
    );
  key
    .command('ls', { isDefault: true })
    .description('List API keys (without their secrets)')
    .action(
      runner.remote(async (remote) => {
        const keys = await remote.client.call(authEndpoints.listKeys);
        if (remote.json) return printJson(remote.io, keys);
        if (!keys.length) return remote.io.out('No API keys.');
        table(
          remote.io,
          ['ID', 'CREATED', 'LAST USED', 'NAME'],
          keys.map((entry) => [entry.id, entry.created_at, entry.last_used_at ?? 'never', entry.name]),
        );
      }),
    );
  key
    .command('revoke')
    .description('Revoke API keys: they stop working at once')
    .argument('<ids...>')
    .action(
      runner.remote(async (remote, ids: string[]) => {
        for (const id of ids) await remote.client.call(authEndpoints.revokeKey, { params: { key_id: id } });
        if (remote.json) printJson(remote.io, { revoked: ids });
        else for (const id of ids) remote.io.out(`${id}: revoked`);
      }),
    );
}
