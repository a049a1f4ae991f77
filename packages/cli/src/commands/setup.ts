import { authEndpoints } from '@rhizome/contracts/api/auth';
import { llmEndpoints } from '@rhizome/contracts/api/llm';
import { opsEndpoints } from '@rhizome/contracts/api/ops';
import { presetEndpoints, type Preset } from '@rhizome/contracts/api/presets';
import { searchEndpoints } from '@rhizome/contracts/api/search';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { Option, type Command } from 'commander';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { positiveInteger } from '../options.ts';
import { remoteOf, type Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { createMachineKey, sessionClient, storeVerifiedKey } from './login.ts';
import { askAccount, askProvider, providers, type Provider, type ProviderChoice } from './setup-questions.ts';

interface SetupOptions {
  nonInteractive?: boolean;
  provider?: Provider;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  username?: string;
  password?: string;
  test: boolean;
  force?: boolean;
  vram?: number;
}

/** The settings changes that make the chosen provider answer chats and extraction, and embed as chosen. */
function providerSettings(choice: ProviderChoice): Record<string, Record<string, unknown>> {
  const { provider, model, baseUrl, apiKey } = choice;
  if (provider === 'builtin') return { llm: { chat_provider: 'builtin' }, embedding: { provider: 'builtin' } };
  const builtinEmbeddings = choice.embeddings === 'builtin' || provider === 'anthropic';
  if (provider === 'ollama')
    return {
      llm: {
        chat_provider: 'localllm',
        ...(model ? { localllm_chat_model: model, localllm_extraction_model: model } : {}),
        ...(baseUrl
          ? { localllm_instances: [{ id: 'default', name: 'Local', base_url: baseUrl, enabled: true }] }
          : {}),
      },
      embedding: { provider: builtinEmbeddings ? 'builtin' : 'localllm' },
    };
  return {
    llm: {
      chat_provider: provider,
      ...(model ? { [`${provider}_chat_model`]: model } : {}),
      ...(baseUrl ? { [`${provider}_base_url`]: baseUrl } : {}),
      ...(apiKey ? { [`${provider}_api_key`]: apiKey } : {}),
    },
    embedding: builtinEmbeddings ? { provider: 'builtin' } : { provider, ...(apiKey ? { api_key: apiKey } : {}) },
  };
}

/** The provider from the command line (the default builtin with --non-interactive), else asked. */
async function providerChoice(options: SetupOptions, signedIn: Remote): Promise<ProviderChoice> {
  const apiKey = options.apiKeyEnv ? process.env[options.apiKeyEnv] : undefined;
  if (options.apiKeyEnv && !apiKey)
    throw new CliFailure(`the environment variable ${options.apiKeyEnv} is not set`, ExitCode.usage);
  if (options.provider || options.nonInteractive) {
    const { model, baseUrl } = options;
    return { provider: options.provider ?? 'builtin', model, baseUrl, apiKey, embeddings: 'provider' };
  }
  return askProvider(async (url) => {
    const result = await signedIn.client.call(llmEndpoints.verifyLocal, { body: { url, timeout: 10 } });
    return { success: result.success, message: result.message, models: result.models };
  });
}

/** The largest model preset that fits `vram` GB of GPU memory. */
async function presetFor(remote: Remote, vram: number): Promise<Preset> {
  const { presets } = await remote.client.call(presetEndpoints.list);
  const fitting = presets.filter((preset) => preset.vram_gb <= vram).sort((a, b) => b.vram_gb - a.vram_gb)[0];
  if (fitting) return fitting;
  const smallest = Math.min(...presets.map((preset) => preset.vram_gb));
  throw new CliFailure(
    `no model preset fits ${vram} GB (the smallest needs ${smallest} GB): the account is set up; run setup --force with --model instead`,
    ExitCode.usage,
  );
}

async function applyPreset(remote: Remote, preset: Preset): Promise<void> {
  const applied = await remote.client.call(presetEndpoints.apply, { body: { preset_id: preset.name } });
  const missing = applied.missing_models.length
    ? `; pull ${applied.missing_models.join(', ')} on the model server`
    : '';
  remote.io.out(`Preset: ${preset.display_name} (${preset.localllm_settings.localllm_chat_model})${missing}`);
}

/** The account's name and password: the options, then RHIZOME_USERNAME / RHIZOME_PASSWORD, then prompts. */
async function credentials(options: SetupOptions): Promise<{ username: string; password: string }> {
  const username = options.username ?? process.env.RHIZOME_USERNAME;
  const password = options.password ?? process.env.RHIZOME_PASSWORD;
  if (options.nonInteractive && (!username || !password))
    throw new CliFailure(
      'pass --username and --password, or set RHIZOME_USERNAME and RHIZOME_PASSWORD',
      ExitCode.usage,
    );
  return askAccount({ username, password });
}

/** The server answers healthy and a search goes through with the stored key. */
async function verify(remote: Remote): Promise<void> {
  const health = await remote.client.call(opsEndpoints.health);
  if (!health.healthy) throw new CliFailure(`the server reports itself unhealthy (${health.status})`);
  await remote.client.call(searchEndpoints.search, { query: { q: 'rhizome setup check', limit: 1 } });
  remote.io.out('Verified: the server is healthy and search answers.');
}

async function setup(remote: Remote, options: SetupOptions): Promise<number> {
  if (options.vram !== undefined && (options.provider ?? 'ollama') !== 'ollama')
    throw new CliFailure('--vram chooses a local model: it goes with -p ollama', ExitCode.usage);
  if (options.vram !== undefined && options.model)
    throw new CliFailure('pass --vram or --model, not both: --vram chooses the model', ExitCode.usage);
  if (!options.nonInteractive && !process.stdin.isTTY)
    throw new CliFailure(
      'no terminal to ask on: pass --non-interactive (with --username and --password)',
      ExitCode.usage,
    );
  const { setup_needed: fresh } = await remote.client.call(authEndpoints.status);
  if (!fresh && !options.force) {
    remote.io.out(`${remote.url} is already set up (pass --force to set it up again).`);
    if (options.test) await verify(remote);
    return ExitCode.ok;
  }
  const account = await credentials(options);
  const session = sessionClient(remote.url);
  await session.call(fresh ? authEndpoints.setup : authEndpoints.login, { body: account });
  const { file } = await storeVerifiedKey(remote.url, await createMachineKey(session));
  remote.io.out(`${fresh ? 'Created' : 'Signed in to'} the account ${account.username}; the key is stored in ${file}`);
  const signedIn = remoteOf({ url: remote.url }, remote.io);
  const preset = options.vram === undefined ? undefined : await presetFor(signedIn, options.vram);
  const choice = await providerChoice(preset ? { ...options, provider: 'ollama' } : options, signedIn);
  await signedIn.client.call(settingsEndpoints.patch, { body: providerSettings(choice) });
  remote.io.out(`Model provider: ${choice.provider}${choice.model ? ` (${choice.model})` : ''}`);
  if (preset) await applyPreset(signedIn, preset);
  if (options.test) await verify(signedIn);
  return ExitCode.ok;
}

export function registerSetup(program: Command, runner: CommandRunner): void {
  program
    .command('setup')
    .description('Set up a fresh server: the account, a key for this machine, the model provider; then verify')
    .option('--non-interactive', 'ask nothing: the account from --username/--password or RHIZOME_USERNAME/PASSWORD')
    .addOption(new Option('-p, --provider <name>', 'the model provider (default builtin)').choices(providers))
    .option('--model <name>', "the provider's chat and extraction model")
    .option(
      '--vram <gb>',
      'with ollama: the models of the largest preset that fits this much GPU memory',
      positiveInteger,
    )
    .option('--base-url <url>', "the provider's URL (ollama: the model server)")
    .option('--api-key-env <variable>', "the environment variable holding the provider's API key")
    .option('--username <name>', 'the account name')
    .option('--password <password>', 'the account password (prefer RHIZOME_PASSWORD)')
    .option('--test', 'verify the server afterwards (default)', true)
    .option('--no-test', 'skip the verification')
    .option('-f, --force', 'set up an already set-up server again (signs in with the account)')
    .action(runner.remote((remote, options: SetupOptions) => setup(remote, options)));
}
