import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { secretSettingPaths } from '@rhizome/contracts/settings';
import { Option, type Command } from 'commander';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { loginFile } from '../config.ts';
import { CliFailure, ExitCode, failureOf } from '../exit-codes.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { confirmOrRefuse } from './consent.ts';

/*
 * Rhizome's settings live on the server (every process reads them there), so show/get/set/reset work on the
 * server's settings; only the login the CLI keeps is on this machine, and `config path` names both files.
 */

type Tree = Record<string, unknown>;

const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

const scalar = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Nested groups indented under their names, one setting a line. */
function treeLines(tree: Tree, indent = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    isTree(value) ? [`${indent}${key}:`, ...treeLines(value, `${indent}  `)] : [`${indent}${key}: ${scalar(value)}`],
  );
}

function keyPath(key: string): string[] {
  const path = key.split('.');
  if (path.some((segment) => !segment))
    throw new CliFailure(
      `'${key}' is no setting key: name one with dots, such as search.default_result_limit`,
      ExitCode.usage,
    );
  return path;
}

const valueAt = (root: unknown, path: string[]) =>
  path.reduce<unknown>((node, segment) => (isTree(node) ? node[segment] : undefined), root);

function settingAt(settings: Tree, key: string): unknown {
  const value = valueAt(settings, keyPath(key));
  if (value === undefined)
    throw new CliFailure(`the server has no setting '${key}' (see 'rhizome config show')`, ExitCode.notFound);
  return value;
}

/** A value as typed on the command line: JSON when it parses as JSON (800, true, null, [..]), else the text. */
function parsedValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const isSecret = (path: string[]) =>
  path.length === 2 && secretSettingPaths.some(([group, key]) => group === path[0] && key === path[1]);

const settingsOf = (remote: Remote) => remote.client.call(settingsEndpoints.get) as Promise<Tree>;

async function show(remote: Remote, options: { format: 'tree' | 'json' | 'yaml' }): Promise<void> {
  const settings = await settingsOf(remote);
  const format = remote.json ? 'json' : options.format;
  if (format === 'json') return printJson(remote.io, settings);
  if (format === 'yaml') return remote.io.out(toYaml(settings).trimEnd());
  for (const line of treeLines(settings)) remote.io.out(line);
}

async function get(remote: Remote, key: string): Promise<void> {
  const value = settingAt(await settingsOf(remote), key);
  if (remote.json) return printJson(remote.io, value);
  if (isTree(value)) for (const line of treeLines(value)) remote.io.out(line);
  else remote.io.out(scalar(value));
}

/** The server validates the change; a value it leaves as it was (a read-only setting) is a failure, not a success. */
async function set(remote: Remote, key: string, text: string): Promise<void> {
  const path = keyPath(key);
  const value = parsedValue(text);
  const before = valueAt(await settingsOf(remote), path);
  const change = path.reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), value) as Tree;
  const { settings, warnings } = await remote.client.call(settingsEndpoints.patch, { body: change });
  const after = settingAt(settings, key);
  if (!isSecret(path) && !isDeepStrictEqual(after, value) && isDeepStrictEqual(after, before)) {
    const hint = path[0] === 'current_database' ? ": switch databases with 'rhizome db switch'" : '';
    throw new CliFailure(`the server keeps ${key} at ${scalar(after)}: it is not changed through the settings${hint}`);
  }
  if (remote.json) return printJson(remote.io, { key, value: after, warnings });
  for (const warning of warnings) remote.io.err(`warning: ${warning.field}: ${warning.message}`);
  remote.io.out(isSecret(path) ? `${key} is ${scalar(after)}` : `${key} = ${scalar(after)}`);
}

/** The CLI's login file always; the server's settings file when the server answers and says where it is. */
async function paths(remote: Remote): Promise<void> {
  const cliFile = loginFile();
  let serverFile: string | null = null;
  try {
    const reported = valueAt(await settingsOf(remote), ['paths', 'settings_file']);
    if (typeof reported === 'string') serverFile = reported;
  } catch (error) {
    remote.io.err(`rhizome: the server's settings file is not known: ${failureOf(error, remote.url).message}`);
  }
  if (remote.json) return printJson(remote.io, { cli_login_file: cliFile, server_settings_file: serverFile });
  remote.io.out(`CLI login:        ${cliFile}`);
  if (serverFile) remote.io.out(`Server settings:  ${serverFile} (${remote.url})`);
}

/** The leaves of `after` that differ from `before`, nested as a settings change; null when none does. */
function changedLeaves(before: Tree, after: Tree): Tree | null {
  const change: Tree = {};
  for (const [key, value] of Object.entries(after)) {
    const old = before[key];
    const inner =
      isTree(value) && isTree(old) ? changedLeaves(old, value) : isDeepStrictEqual(value, old) ? null : value;
    if (inner !== null) change[key] = inner;
  }
  return Object.keys(change).length > 0 ? change : null;
}

const leafKeys = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    isTree(value) ? leafKeys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );

/** Runs `$VISUAL` or `$EDITOR` (through the shell, so it may carry arguments: `code --wait`) on the file. */
function runEditor(file: string): Promise<void> {
  const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
  return new Promise((resolve, reject) => {
    const child = spawn(`${editor} '${file}'`, { shell: true, stdio: 'inherit' });
    child.on('error', (error) => reject(new CliFailure(`the editor '${editor}' did not start: ${error.message}`)));
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new CliFailure(`the editor '${editor}' exited with code ${String(code)}: nothing was changed`)),
    );
  });
}

/** The settings as YAML in an editor; what was changed goes to the server as one change, which it validates whole. */
async function edit(remote: Remote): Promise<void> {
  const before = await settingsOf(remote);
  const dir = mkdtempSync(join(tmpdir(), 'rhizome-settings-'));
  const file = join(dir, 'settings.yaml');
  try {
    writeFileSync(file, toYaml(before), { mode: 0o600 });
    await runEditor(file);
    let after: unknown;
    try {
      after = parseYaml(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new CliFailure(`the edited settings are no valid YAML: ${(error as Error).message}`, ExitCode.usage);
    }
    if (!isTree(after))
      throw new CliFailure('the edited settings are not a mapping: nothing was changed', ExitCode.usage);
    const change = changedLeaves(before, after);
    if (!change) {
      if (remote.json) return printJson(remote.io, { changed: [], warnings: [] });
      return remote.io.out('No setting changed');
    }
    const { settings, warnings } = await remote.client.call(settingsEndpoints.patch, { body: change });
    const changed = leafKeys(change);
    if (remote.json) return printJson(remote.io, { changed, warnings });
    for (const warning of warnings) remote.io.err(`warning: ${warning.field}: ${warning.message}`);
    for (const key of changed) remote.io.out(`${key} = ${scalar(valueAt(settings, key.split('.')))}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function reset(remote: Remote, options: { force?: boolean }): Promise<void> {
  if (!options.force)
    await confirmOrRefuse(remote.io, `reset every setting of the server at ${remote.url} to its default`, '--force');
  const settings = (await remote.client.call(settingsEndpoints.reset)) as Tree;
  if (remote.json) return printJson(remote.io, settings);
  remote.io.out(`Every setting of the server at ${remote.url} is back to its default`);
}

export function registerConfig(program: Command, runner: CommandRunner): void {
  const config = program.command('config').description("Show and change the server's settings");
  config
    .command('show')
    .description('Every setting (secrets masked)')
    .addOption(
      new Option('-f, --format <format>', 'how to print them').choices(['tree', 'json', 'yaml']).default('tree'),
    )
    .action(runner.remote(show));
  config
    .command('get')
    .description('One setting or group, by its dotted key (search.default_result_limit)')
    .argument('<key>')
    .action(runner.remote(get));
  config
    .command('set')
    .description('Change one setting; VALUE is read as JSON when it parses (800, true, ["a"]), else as text')
    .argument('<key>')
    .argument('<value>')
    .action(runner.remote(set));
  config
    .command('edit')
    .description('Edit the settings as YAML in $VISUAL or $EDITOR; the changes are applied when the editor exits')
    .action(runner.remote(edit));
  config
    .command('path')
    .description("Where the CLI keeps its login, and the server's settings file")
    .action(runner.remote(paths));
  config
    .command('reset')
    .description('Reset every setting to its default (the active database stays)')
    .option('-f, --force', 'do not ask first (needed where there is no terminal to ask on)')
    .action(runner.remote(reset));
}
