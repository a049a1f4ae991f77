import { databaseEndpoints } from '@rhizome/contracts/api/databases';
import type { Command } from 'commander';
import { printJson, table } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { confirmOrRefuse } from './consent.ts';

type DatabaseInfo = Awaited<ReturnType<typeof databaseInfo>>;

const databaseInfo = (remote: Remote, name: string) => remote.client.call(databaseEndpoints.get, { params: { name } });

function printInfo(remote: Remote, info: DatabaseInfo, active: boolean): void {
  const rows: [string, string][] = [
    ['name', `${info.name}${active ? ' (active)' : ''}`],
    ['path', info.path],
    ['exists', info.exists ? 'yes' : 'no'],
    ['size', `${info.size} bytes`],
    ['last modified', info.last_modified ?? 'never'],
  ];
  for (const [label, value] of rows) remote.io.out(`${`${label}:`.padEnd(15)}${value}`);
}

async function list(remote: Remote, options: { quiet?: boolean }): Promise<void> {
  const [{ databases }, { current }] = await Promise.all([
    remote.client.call(databaseEndpoints.list),
    remote.client.call(databaseEndpoints.current),
  ]);
  if (remote.json) return printJson(remote.io, { current, databases });
  if (options.quiet) return databases.forEach((database) => remote.io.out(database.name));
  table(
    remote.io,
    ['ACTIVE', 'NAME', 'BYTES', 'LAST MODIFIED'],
    databases.map((database) => [
      database.name === current ? '*' : '',
      database.name,
      String(database.size),
      database.last_modified ?? 'never',
    ]),
  );
}

async function current(remote: Remote, options: { verbose?: boolean }): Promise<void> {
  const active = await remote.client.call(databaseEndpoints.current);
  if (remote.json) return printJson(remote.io, active);
  if (options.verbose) printInfo(remote, active.info, true);
  else remote.io.out(active.current);
}

async function info(remote: Remote, name: string): Promise<void> {
  const [database, active] = await Promise.all([
    databaseInfo(remote, name),
    remote.client.call(databaseEndpoints.current),
  ]);
  if (remote.json) return printJson(remote.io, { ...database, active: active.current === name });
  printInfo(remote, database, active.current === name);
}

async function create(remote: Remote, name: string): Promise<void> {
  const created = await remote.client.call(databaseEndpoints.create, { body: { name } });
  if (remote.json) return printJson(remote.io, created);
  remote.io.out(`Created database '${created.name}' at ${created.path}`);
}

async function switchTo(remote: Remote, name: string): Promise<void> {
  const switched = await remote.client.call(databaseEndpoints.switch, { body: { name } });
  if (remote.json) return printJson(remote.io, switched);
  remote.io.out(switched.message);
}

/** Which databases may not be deleted (the default, the active one) is the server's rule; its refusal is shown. */
async function remove(remote: Remote, name: string, options: { yes?: boolean }): Promise<void> {
  // Asked about only once it is known to exist, so an unknown name is "not found" rather than a question.
  await databaseInfo(remote, name);
  if (!options.yes) await confirmOrRefuse(remote.io, `delete database '${name}' and everything in it`, '--yes');
  await remote.client.call(databaseEndpoints.remove, { params: { name } });
  if (remote.json) return printJson(remote.io, { deleted: name });
  remote.io.out(`Deleted database '${name}'`);
}

/** The database commands under `db`, next to its schema migration commands. */
export function registerDatabases(db: Command, runner: CommandRunner): void {
  // Each prints its own options, not the overview of `db` it would inherit.
  const subcommand = (name: string) => db.command(name).configureHelp({});
  subcommand('list')
    .alias('ls')
    .description('List the databases; * marks the active one')
    .option('-q, --quiet', 'only their names, one a line')
    .action(runner.remote(list));
  subcommand('current')
    .description('Show the active database')
    .option('-v, --verbose', 'its path, size and last change too')
    .action(runner.remote(current));
  subcommand('create').description('Create a database').argument('<name>').action(runner.remote(create));
  subcommand('switch')
    .description('Make a database the active one (a directory without app.db gets one)')
    .argument('<name>')
    .action(runner.remote(switchTo));
  subcommand('info')
    .description("A database's path, size and last change")
    .argument('<name>')
    .action(runner.remote(info));
  subcommand('delete')
    .description('Delete a database permanently (never the default or the active one)')
    .argument('<name>')
    .option('-y, --yes', 'do not ask first (needed where there is no terminal to ask on)')
    .action(runner.remote(remove));
}
