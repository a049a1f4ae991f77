import os from 'node:os';
import readline from 'node:readline/promises';
import { RhizomeClient } from '@rhizome/client';
import { authEndpoints } from '@rhizome/contracts/api/auth';
import type { Command } from 'commander';
import { writeLogin } from '../config.ts';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { printJson } from '../output.ts';
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

async function ask(question: string): Promise<string> {
  if (!process.stdin.isTTY)
    throw new CliFailure('no terminal to ask on: pass --api-key, or --username with --password-stdin', ExitCode.usage);
  const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await prompt.question(question);
  } finally {
    prompt.close();
  }
}

/** Signs in with the account's password (a session), and creates an API key for this machine with it. */
async function keyFromPassword(remote: Remote, options: LoginOptions): Promise<string> {
  const username = options.username ?? (await ask('Username: '));
  const password = options.passwordStdin
    ? await readStdin()
    : (process.env.RHIZOME_PASSWORD ?? (await ask('Password: ')));
  let cookie = '';
  const session = new RhizomeClient({
    baseUrl: `${remote.url}/api/v1`,
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      if (cookie) headers.set('cookie', cookie);
      const response = await fetch(input, { ...init, headers });
      cookie = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
      return response;
    },
  });
  await session.call(authEndpoints.login, { body: { username, password } });
  const created = await session.call(authEndpoints.createKey, {
    body: { name: `rhizome CLI on ${os.hostname()}`.slice(0, 64) },
  });
  return created.key;
}

async function login(remote: Remote, options: LoginOptions): Promise<number> {
  const apiKey = options.apiKey ?? (await keyFromPassword(remote, options));
  const verified = new RhizomeClient({ baseUrl: `${remote.url}/api/v1`, apiKey });
  const { username } = await verified.call(authEndpoints.me);
  const file = writeLogin({ url: remote.url, api_key: apiKey });
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
