import os from 'node:os';
import { input, password as askSecret } from '@inquirer/prompts';
import { RhizomeClient } from '@rhizome/client';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import type { Command } from 'commander';
import { writeLogin } from '../config.ts';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { printJson } from '../output.ts';
import { promptContext, prompting } from '../prompts.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';

interface LoginOptions {
  apiKey?: string;
  username?: string;
  passwordStdin?: boolean;
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.replace(/\r?\n$/, '');
}

/** One answer from the terminal (a secret one is masked); prompts go to stderr, stdout stays the output. */
async function ask(message: string, { secret = false } = {}): Promise<string> {
  if (!process.stdin.isTTY)
    throw new CliFailure('no terminal to ask on: pass --api-key, or --username with --password-stdin', ExitCode.usage);
  return prompting('login', () =>
    secret ? askSecret({ message, mask: true }, promptContext) : input({ message, required: true }, promptContext),
  );
}

/** A client that keeps the session cookie the server sets, as a browser does. */
export function sessionClient(url: string): RhizomeClient {
  let cookie = '';
  return new RhizomeClient({
    baseUrl: `${url}/api/v1`,
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      if (cookie) headers.set('cookie', cookie);
      const response = await fetch(input, { ...init, headers });
      cookie = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
      return response;
    },
  });
}

/** Creates an API key for this machine with a signed-in session. */
export async function createMachineKey(session: RhizomeClient): Promise<string> {
  const created = await session.call(authEndpoints.createKey, {
    body: { name: `rhizome CLI on ${os.hostname()}`.slice(0, 64) },
  });
  return created.key;
}

/** Signs in with the account's password (a session), and creates an API key for this machine with it. */
async function keyFromPassword(remote: Remote, options: LoginOptions): Promise<string> {
  const username = options.username ?? (await ask('Account name'));
  const password = options.passwordStdin
    ? await readStdin()
    : (process.env.RHIZOME_PASSWORD ?? (await ask('Password', { secret: true })));
  const session = sessionClient(remote.url);
  await session.call(authEndpoints.login, { body: { username, password } });
  return createMachineKey(session);
}

/** Checks the key against the server, then stores it as this machine's login for the server. */
export async function storeVerifiedKey(url: string, apiKey: string): Promise<{ username: string; file: string }> {
  const verified = new RhizomeClient({ baseUrl: `${url}/api/v1`, apiKey });
  const { username } = await verified.call(authEndpoints.me);
  return { username, file: writeLogin({ url, api_key: apiKey }) };
}

async function login(remote: Remote, options: LoginOptions): Promise<number> {
  const apiKey = options.apiKey ?? (await keyFromPassword(remote, options));
  const { username, file } = await storeVerifiedKey(remote.url, apiKey);
  if (remote.json) printJson(remote.io, { url: remote.url, username, config_file: file });
  else remote.io.out(`Logged in to ${remote.url} as ${username}; the key is stored in ${file}`);
  return ExitCode.ok;
}

export function registerLogin(program: Command, runner: CommandRunner): void {
  program
    .command('login')
    .description('Store an API key for the server (in the config directory, readable by you only)')
    .option('--username <name>', 'sign in with the account and create a key for this machine')
    .option('--password-stdin', 'read the password from stdin')
    .addHelpText(
      'after',
      '\nWith --api-key, that key is checked and stored; otherwise the username and password create one.',
    )
    .action(
      runner.remote((remote, options: LoginOptions) =>
        login(remote, { ...options, apiKey: options.username ? undefined : remote.apiKey }),
      ),
    );
}
