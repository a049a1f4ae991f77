import { confirm, input, password, select } from '@inquirer/prompts';
import { promptContext, prompting } from '../prompts.ts';

export const providers = ['builtin', 'ollama', 'openai', 'anthropic', 'gemini'] as const;
export type Provider = (typeof providers)[number];

export interface ProviderChoice {
  provider: Provider;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  /** Whether embeddings come from the provider (when it has them) or the builtin embedder. */
  embeddings: 'provider' | 'builtin';
}

export interface LocalServerCheck {
  success: boolean;
  message: string;
  models: string[] | null;
}

const context = promptContext;

export const defaultLocalServer = 'http://127.0.0.1:11434';

const providerChoices = [
  {
    value: 'builtin',
    name: 'Builtin (offline)',
    description: 'Works at once, no model server: pattern extraction and extractive answers. Free.',
  },
  {
    value: 'ollama',
    name: 'Local model server (Ollama)',
    description: 'A model on this machine or your network: real extraction and answers; needs a GPU or patience.',
  },
  {
    value: 'openai',
    name: 'OpenAI',
    description: 'Cloud models; best quality; paid per token, text leaves the machine.',
  },
  {
    value: 'anthropic',
    name: 'Anthropic',
    description: 'Cloud models (Claude); paid per token; embeddings stay builtin.',
  },
  { value: 'gemini', name: 'Google Gemini', description: 'Cloud models; paid per token, text leaves the machine.' },
] as const satisfies readonly { value: Provider; name: string; description: string }[];

export function askAccount(known: { username?: string; password?: string }) {
  return prompting('setup', async () => {
    const username = known.username || (await input({ message: 'Account name', required: true }, context));
    const secret =
      known.password ||
      (await password(
        {
          message: 'Password (at least 8 characters)',
          mask: true,
          validate: (value) => value.length >= 8 || 'At least 8 characters',
        },
        context,
      ));
    return { username, password: secret };
  });
}

/** The model provider, asked step by step; a local server is checked before it is accepted. */
export function askProvider(checkLocal: (url: string) => Promise<LocalServerCheck>): Promise<ProviderChoice> {
  return prompting('setup', async () => {
    const provider = await select<Provider>({ message: 'Model provider', choices: providerChoices }, context);
    if (provider === 'builtin') return { provider, embeddings: 'builtin' };
    if (provider === 'ollama')
      return { provider, ...(await askLocalServer(checkLocal)), ...(await askEmbeddings(true)) };
    const apiKey = await password(
      { message: `${provider} API key (empty: set it later in Settings)`, mask: true },
      context,
    );
    const model = await input({ message: 'Chat model (empty: the default)' }, context);
    return {
      provider,
      ...(apiKey ? { apiKey } : {}),
      ...(model ? { model } : {}),
      ...(await askEmbeddings(provider !== 'anthropic')),
    };
  });
}

async function askLocalServer(
  checkLocal: (url: string) => Promise<LocalServerCheck>,
): Promise<{ baseUrl: string; model?: string }> {
  for (;;) {
    const baseUrl = await input({ message: 'Model server URL', default: defaultLocalServer }, context);
    const check = await checkLocal(baseUrl);
    process.stderr.write(`${check.success ? '✓' : '✗'} ${check.message}\n`);
    if (check.success) {
      const models = check.models ?? [];
      const model = models.length
        ? await select({ message: 'Chat and extraction model', choices: models.map((value) => ({ value })) }, context)
        : await input({ message: 'Chat and extraction model (empty: the default)' }, context);
      return { baseUrl, ...(model ? { model } : {}) };
    }
    if (await confirm({ message: 'Use this URL anyway?', default: false }, context)) return { baseUrl };
  }
}

async function askEmbeddings(providerHasThem: boolean): Promise<{ embeddings: 'provider' | 'builtin' }> {
  if (!providerHasThem) return { embeddings: 'builtin' };
  const embeddings = await select<'provider' | 'builtin'>(
    {
      message: 'Embeddings',
      choices: [
        { value: 'provider', name: "The provider's embedding model", description: 'Much better semantic search.' },
        { value: 'builtin', name: 'Builtin word vectors', description: 'Offline and instant; weaker semantic search.' },
      ],
    },
    context,
  );
  return { embeddings };
}
