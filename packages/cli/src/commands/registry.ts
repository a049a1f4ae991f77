import { RequestError } from '@rhizome/client';
import { registryEndpoints } from '@rhizome/contracts/api/registry';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { Option, type Command } from 'commander';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { positiveInteger } from '../options.ts';
import { printJson, table } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { infoStored, listStored, removeFromStore, type ListOptions, type RemoveOptions } from './registry-local.ts';
import { registryLogin, type RegistryLoginOptions } from './registry-login.ts';
import { packageName, pullPackage, pushPackage, type PullOptions, type PushOptions } from './registry-transfer.ts';

type PackageInfo = ResponseOf<typeof registryEndpoints.info>;

/**
 * The registry's refusals (HTTP_401/403 from the server's registry routes) mean the server's registry login, not the
 * API key: our own authentication answers with other codes, which the runner explains.
 */
function registryRefusal(error: unknown): never {
  if (error instanceof RequestError && (error.status === 401 || error.status === 403) && error.code.startsWith('HTTP_'))
    throw new CliFailure(`${error.message} (run 'rhizome registry login')`, ExitCode.unauthorized);
  throw error;
}

const registryAction =
  <A extends unknown[]>(action: (remote: Remote, ...args: A) => Promise<number | void>) =>
  (remote: Remote, ...args: A) =>
    action(remote, ...args).catch(registryRefusal);

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function whoami(remote: Remote): Promise<number> {
  const status = await remote.client.call(registryEndpoints.status);
  if (remote.json) printJson(remote.io, status);
  else if (status.authenticated)
    remote.io.out(`${status.username ?? 'an unnamed account'} at ${status.registry_url ?? 'the default registry'}`);
  else remote.io.err("rhizome: the server is not logged in to a registry: run 'rhizome registry login'");
  return status.authenticated ? ExitCode.ok : ExitCode.unauthorized;
}

interface SearchOptions {
  limit: number;
  author?: string;
  sort?: 'relevance' | 'stars' | 'downloads' | 'newest' | 'updated' | 'name';
}

const searchPage = 100;

/** One page of hits; with an author, the pages are read until enough of that author's packages are found. */
async function findPackages(remote: Remote, query: string, options: SearchOptions): Promise<PackageInfo[]> {
  const sort_by = options.sort;
  if (!options.author)
    return (await remote.client.call(registryEndpoints.search, { query: { query, limit: options.limit, sort_by } }))
      .packages;
  const found: PackageInfo[] = [];
  for (let page = 1; found.length < options.limit; page += 1) {
    const result = await remote.client.call(registryEndpoints.search, {
      query: { query, page, limit: searchPage, sort_by },
    });
    found.push(...result.packages.filter((item) => item.owner_username === options.author));
    if (result.packages.length < searchPage || page * searchPage >= result.total) break;
  }
  return found.slice(0, options.limit);
}

async function search(remote: Remote, query: string, options: SearchOptions): Promise<void> {
  const packages = await findPackages(remote, query, options);
  if (remote.json) return printJson(remote.io, packages);
  if (!packages.length) return remote.io.out('No packages found.');
  table(
    remote.io,
    ['PACKAGE', 'TYPE', 'DOWNLOADS', 'STARS', 'UPDATED', 'DESCRIPTION'],
    packages.map((item) => [
      `${item.owner_username}/${item.name}`,
      item.package_type,
      String(item.download_count),
      String(item.star_count),
      day(item.updated_at),
      item.description,
    ]),
  );
}

async function info(remote: Remote, spec: string): Promise<void> {
  const { owner, name } = packageName(spec);
  const found = await remote.client.call(registryEndpoints.info, { params: { owner, name } });
  if (remote.json) return printJson(remote.io, found);
  remote.io.out(`${found.owner_username}/${found.name}${found.description ? `: ${found.description}` : ''}`);
  remote.io.out(`  type        ${found.package_type}, ${found.is_public ? 'public' : 'private'}`);
  remote.io.out(`  owner       ${found.owner_name} (${found.owner_username})`);
  remote.io.out(`  versions    ${found.version_count}`);
  remote.io.out(`  downloads   ${found.download_count}, stars ${found.star_count}`);
  remote.io.out(`  created     ${day(found.created_at)}, updated ${day(found.updated_at)}`);
}

function addPull(parent: Command, runner: CommandRunner): void {
  parent
    .command('pull')
    .description('Import a registry package into the active database (merged with what is there)')
    .argument('<package>', 'OWNER/NAME')
    .option('-v, --package-version <version>', 'the version (default: latest)')
    .option('-o, --output <dir>', 'download the .ccx into this directory instead of importing it')
    .option('-x, --extract', 'unpack the download into <dir>/<name>/ (the current directory without --output)')
    .option('-f, --force', 'download again even when this machine stores that version')
    .action(
      runner.remote(registryAction((remote, spec: string, options: PullOptions) => pullPackage(remote, spec, options))),
    );
}

function addPush(parent: Command, runner: CommandRunner): void {
  parent
    .command('push')
    .description("Publish a .ccx package to the registry with the server's registry login")
    .argument('<path>', 'a .ccx file, or a directory holding one')
    .option('-m, --message <text>', 'a note on this version')
    .option('--public', 'anyone may find and pull it (the default)')
    .option('--private', 'only its owner may')
    .action(
      runner.remote(
        registryAction((remote, target: string, options: PushOptions) => pushPackage(remote, target, options)),
      ),
    );
}

/** `pull`, `push` and the `registry` group (alias `lexicon`): the package registry, reached through the server. */
export function registerRegistry(program: Command, runner: CommandRunner): void {
  addPull(program, runner);
  addPush(program, runner);
  const registry = program
    .command('registry')
    .alias('lexicon')
    .description(
      'The package registry: log the server in, search, show, pull and push packages; the pulled ones kept here',
    );
  registry
    .command('login')
    .description('Log the server in to the registry: a token, a password, or else a code approved in a browser')
    .option('-u, --registry-url <url>', "the registry (default: the server's registry.url)")
    .option('-t, --token <token>', 'store this registry access token')
    .option('--username <name>', 'log in with the registry account (with --password)')
    .option('--password <password>', "the registry account's password")
    .option('--no-browser', 'only print the address to approve the login at')
    .action(runner.remote(registryAction((remote, options: RegistryLoginOptions) => registryLogin(remote, options))));
  registry
    .command('logout')
    .description("Remove the server's registry credentials")
    .action(
      runner.remote(async (remote) => {
        const done = await remote.client.call(registryEndpoints.logout);
        if (remote.json) printJson(remote.io, done);
        else remote.io.out(done.message);
      }),
    );
  registry
    .command('whoami')
    .description('The registry account the server is logged in with; exits 4 when there is none')
    .action(runner.remote((remote) => whoami(remote)));
  registry
    .command('search')
    .description("Search the registry's packages")
    .argument('[query]', 'words in the name or description (default: every package)')
    .option('-n, --limit <count>', 'at most this many (1-100)', positiveInteger, 20)
    .option('-a, --author <username>', "only this owner's packages")
    .addOption(
      new Option('-s, --sort <order>', 'the order (default: downloads)').choices([
        'relevance',
        'stars',
        'downloads',
        'newest',
        'updated',
        'name',
      ]),
    )
    .action(
      runner.remote(
        registryAction((remote, query: string | undefined, options: SearchOptions) =>
          search(remote, query ?? '', options),
        ),
      ),
    );
  registry
    .command('info')
    .description('One package of the registry, or with --local the copy this machine pulled')
    .argument('<package>', 'OWNER/NAME')
    .option('-l, --local', "the stored copy's manifest, without asking the registry")
    .option('-v, --package-version <version>', 'with --local: that stored version (default: the newest pull)')
    .action(
      runner.remote(
        registryAction((remote, spec: string, options: { local?: boolean; packageVersion?: string }) =>
          options.local ? infoStored(remote, spec, options.packageVersion) : info(remote, spec),
        ),
      ),
    );
  registry
    .command('list')
    .description('The packages pulled on this machine (kept in its package store)')
    .option('--all', 'every stored version, not only the newest pull of each')
    .addOption(new Option('-f, --format <format>', 'the output (default: table)').choices(['table', 'json', 'simple']))
    .action(runner.remote((remote, options: ListOptions) => listStored(remote, options)));
  registry
    .command('remove')
    .description("Delete a package's stored copy from this machine (the database keeps what it imported)")
    .argument('<package>', 'OWNER/NAME')
    .option('-v, --package-version <version>', 'that version only')
    .option('--all', 'every stored version')
    .option('-f, --force', 'succeed when nothing is stored')
    .action(runner.remote((remote, spec: string, options: RemoveOptions) => removeFromStore(remote, spec, options)));
  addPull(registry, runner);
  addPush(registry, runner);
}
