import { spawn } from 'node:child_process';
import { registryEndpoints } from '@rhizome/contracts/api/registry';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';

export interface RegistryLoginOptions {
  registryUrl?: string;
  token?: string;
  username?: string;
  password?: string;
  browser: boolean;
}

type Signed = ResponseOf<typeof registryEndpoints.login>;

/** Opens `url` in the desktop's browser when there is an opener; a machine without one only prints the URL. */
function openBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? null : 'xdg-open';
  if (!opener) return;
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** The device flow: the user approves the code in a browser while this polls the server, which stores the token. */
async function deviceLogin(remote: Remote, options: RegistryLoginOptions): Promise<Signed> {
  const registry_url = options.registryUrl ?? null;
  const device = await remote.client.call(registryEndpoints.device, { body: { registry_url } });
  const page = device.verification_uri_complete ?? device.verification_uri;
  remote.io.err(`Open ${page} and enter the code ${device.user_code} to approve this login.`);
  if (options.browser) openBrowser(page);
  const deadline = Date.now() + device.expires_in * 1000;
  let interval = device.interval;
  while (Date.now() < deadline) {
    await sleep(interval);
    const answer = await remote.client.call(registryEndpoints.poll, {
      body: { device_code: device.device_code, registry_url },
    });
    if (answer.success) return answer;
    // A pending answer names the wait before the next poll, longer once the registry asked to slow down.
    interval = Number(/(\d+) s\b/.exec(answer.message)?.[1] ?? interval);
  }
  throw new CliFailure(`the code ${device.user_code} expired before the login was approved; run the login again`);
}

async function signIn(remote: Remote, options: RegistryLoginOptions): Promise<Signed> {
  const registry_url = options.registryUrl ?? null;
  if (options.token)
    return remote.client.call(registryEndpoints.token, {
      body: { token: options.token, username: options.username ?? null, registry_url },
    });
  if (options.username || options.password) {
    if (!options.username || !options.password)
      throw new CliFailure('give --username and --password together', ExitCode.usage);
    return remote.client.call(registryEndpoints.login, {
      body: { username: options.username, password: options.password, registry_url },
    });
  }
  return deviceLogin(remote, options);
}

/** Logs the server in to the package registry: a token given, a password, or else the device flow. */
export async function registryLogin(remote: Remote, options: RegistryLoginOptions): Promise<void> {
  const signed = await signIn(remote, options);
  if (remote.json) return printJson(remote.io, signed);
  remote.io.out(`Logged in to ${signed.registry_url}${signed.username ? ` as ${signed.username}` : ''}`);
}
