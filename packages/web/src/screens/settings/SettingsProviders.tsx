import { useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Button, Card, Group, Radio, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { llmEndpoints } from '@rhizome/contracts/api/llm';
import { presetEndpoints } from '@rhizome/contracts/api/presets';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { secretPlaceholder, type ChatProvider, type Settings } from '@rhizome/contracts/settings';
import { RequestError } from '@rhizome/client';
import { api, messageOf } from '../../lib/api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SettingsCloudProvider, type CloudDraft } from './SettingsCloudProvider.tsx';
import { SettingsLocalProvider, type LocalDraft } from './SettingsLocalProvider.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

type Cloud = 'openai' | 'anthropic' | 'gemini';
type Llm = Settings['llm'];
type Health = ResponseOf<typeof llmEndpoints.health>;

const providers: { value: ChatProvider; label: string; description: string }[] = [
  { value: 'builtin', label: 'Built-in', description: 'Works offline with no setup; simple extraction and answers.' },
  {
    value: 'localllm',
    label: 'Local model server',
    description: 'Ollama or a compatible server on your machine or network.',
  },
  { value: 'openai', label: 'OpenAI', description: 'GPT models with your OpenAI API key.' },
  { value: 'anthropic', label: 'Anthropic', description: 'Claude models with your Anthropic API key.' },
  { value: 'gemini', label: 'Gemini', description: 'Google Gemini models with your API key.' },
];
const clouds: Cloud[] = ['openai', 'anthropic', 'gemini'];
const isCloud = (provider: ChatProvider): provider is Cloud => (clouds as string[]).includes(provider);

interface Draft {
  provider: ChatProvider;
  local: LocalDraft;
  cloud: Record<Cloud, CloudDraft>;
}

function draftOf(llm: Llm): Draft {
  const cloudDraft = (cloud: Cloud): CloudDraft => ({
    apiKey: '',
    baseUrl: llm[`${cloud}_base_url`],
    model: llm[`${cloud}_chat_model`],
  });
  return {
    provider: llm.chat_provider,
    local: {
      instances: llm.localllm_instances,
      chatModel: llm.localllm_chat_model,
      extractionModel: llm.localllm_extraction_model,
      visionModel: llm.localllm_vision_model,
    },
    cloud: { openai: cloudDraft('openai'), anthropic: cloudDraft('anthropic'), gemini: cloudDraft('gemini') },
  };
}

/** The llm changes that make the draft's provider the one in use. */
function patchOf(draft: Draft): Partial<Llm> {
  const patch: Partial<Llm> = { chat_provider: draft.provider };
  if (draft.provider === 'localllm') {
    Object.assign(patch, {
      localllm_instances: draft.local.instances.map((instance) => ({
        ...instance,
        base_url: instance.base_url.trim(),
      })),
      localllm_chat_model: draft.local.chatModel,
      localllm_extraction_model: draft.local.extractionModel,
      localllm_vision_model: draft.local.visionModel,
    });
  } else if (isCloud(draft.provider)) {
    const cloud = draft.cloud[draft.provider];
    Object.assign(patch, {
      [`${draft.provider}_base_url`]: cloud.baseUrl.trim(),
      [`${draft.provider}_chat_model`]: cloud.model,
    });
    if (cloud.apiKey === null || cloud.apiKey.trim())
      Object.assign(patch, { [`${draft.provider}_api_key`]: cloud.apiKey?.trim() ?? null });
  }
  return patch;
}

const cloudFieldOf: Record<string, 'apiKey' | 'baseUrl' | 'model'> = {
  api_key: 'apiKey',
  base_url: 'baseUrl',
  chat_model: 'model',
};

/** Stable, so the loaded settings do not change (and reset the draft) on every render. */
const noModels: { name: string }[] = [];

/** Which model provider answers chats and extracts entities: choose, enter keys, pick models, save and verify. */
export function SettingsProviders() {
  const settings = useEndpoint(settingsEndpoints.get);
  const presetList = useEndpoint(presetEndpoints.list);
  const cloudModels = useEndpoint(presetEndpoints.cloudModels);
  // No local server configured or reachable: the lists come from connection tests instead.
  const local = useEndpoint(llmEndpoints.localModels);
  const localModels = local.error ? noModels : local.data?.models;
  const patch = useAction(settingsEndpoints.patch);
  const loaded = {
    error: settings.error ?? presetList.error ?? cloudModels.error,
    reload: () => Promise.all([settings.reload(), presetList.reload(), cloudModels.reload(), local.reload()]),
    data: useMemo(
      () =>
        settings.data && presetList.data && cloudModels.data && localModels
          ? {
              llm: (settings.data as unknown as Settings).llm,
              presets: presetList.data.presets,
              catalog: cloudModels.data.providers,
              installed: localModels.map((model) => model.name),
            }
          : undefined,
      [settings.data, presetList.data, cloudModels.data, localModels],
    ),
  };
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [cloudErrors, setCloudErrors] = useState<CloudErrors>({});
  const [health, setHealth] = useState<Health | 'checking' | null>(null);

  useEffect(() => {
    if (loaded.data) setDraft(draftOf(loaded.data.llm));
  }, [loaded.data]);

  async function check() {
    setHealth('checking');
    try {
      setHealth(await api.call(llmEndpoints.health, { query: { fresh: true } }));
    } catch (error) {
      setHealth({
        verified: false,
        provider: draft?.provider ?? '',
        message: messageOf(error),
        missing_models: [],
        instances: [],
        checked_at: new Date().toISOString(),
        models: { chat: '', extraction: '', vision: null, embedding: '' },
      });
    }
  }

  async function save() {
    if (!draft) return;
    setSaving(true);
    setFailure(null);
    setCloudErrors({});
    try {
      const answer = await patch.run({ body: { llm: patchOf(draft) } });
      const llm = (answer.settings as unknown as Settings).llm;
      notifications.show({
        color: 'teal',
        message: `Now using ${providers.find((item) => item.value === llm.chat_provider)?.label ?? llm.chat_provider}.`,
      });
      await check();
    } catch (error) {
      if (error instanceof RequestError && error.issues.length) {
        const errors: CloudErrors = {};
        const other: string[] = [];
        for (const issue of error.issues) {
          const key = String(issue.loc[2] ?? '');
          const suffix = /^(?:openai|anthropic|gemini)_(api_key|base_url|chat_model)$/.exec(key)?.[1];
          if (suffix)
            errors[cloudFieldOf[suffix]] =
              issue.type === 'pattern' ? 'Enter an address starting with http:// or https://' : issue.msg;
          else
            other.push(
              key === 'localllm_instances'
                ? `Server ${Number(issue.loc[3] ?? 0) + 1}: ${issue.type === 'pattern' ? 'enter an address starting with http:// or https://' : issue.msg}`
                : issue.msg,
            );
        }
        setCloudErrors(errors);
        setFailure(other.length ? other.join('; ') : 'Nothing was saved: correct the highlighted fields.');
      } else {
        setFailure(messageOf(error));
      }
    } finally {
      setSaving(false);
    }
  }

  if (loaded.error)
    return (
      <ErrorNotice title="Could not load the providers" message={loaded.error} onRetry={() => void loaded.reload()} />
    );
  if (!loaded.data || !draft) return <Skeleton h={400} radius="md" />;
  const { llm, catalog, presets, installed } = loaded.data;
  const provider = draft.provider;
  return (
    <Stack gap="md">
      <Card withBorder radius="md">
        <Group justify="space-between" mb="xs">
          <Title order={2} fz="md">
            Model provider
          </Title>
          <Badge variant="light" color="gray">
            In use: {providers.find((item) => item.value === llm.chat_provider)?.label}
          </Badge>
        </Group>
        <Text fz="sm" c="dimmed" mb="sm">
          Answers chats and reads your sources to build the graph.
        </Text>
        <Radio.Group
          value={provider}
          onChange={(value) => {
            setDraft({ ...draft, provider: value as ChatProvider });
            setHealth(null);
          }}
          aria-label="Model provider"
        >
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="xs">
            {providers.map((item) => (
              <Radio.Card key={item.value} value={item.value} radius="md" p="sm" aria-label={item.label}>
                <Group wrap="nowrap" align="flex-start" gap="xs">
                  <Radio.Indicator mt={2} />
                  <div>
                    <Text fw={600} fz="sm">
                      {item.label}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {item.description}
                    </Text>
                  </div>
                </Group>
              </Radio.Card>
            ))}
          </SimpleGrid>
        </Radio.Group>
      </Card>
      {provider !== 'builtin' && (
        <Card withBorder radius="md">
          {provider === 'localllm' && (
            <SettingsLocalProvider
              draft={draft.local}
              onChange={(local) => setDraft({ ...draft, local })}
              installed={installed}
              presets={presets}
              onPresetApplied={() => void loaded.reload()}
            />
          )}
          {isCloud(provider) && (
            <SettingsCloudProvider
              name={catalog[provider].display_name}
              draft={draft.cloud[provider]}
              onChange={(cloud) => setDraft({ ...draft, cloud: { ...draft.cloud, [provider]: cloud } })}
              keyStored={llm[`${provider}_api_key`] === secretPlaceholder}
              models={catalog[provider].models}
              errors={cloudErrors}
            />
          )}
        </Card>
      )}
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {health && health !== 'checking' && (
        <Alert
          color={health.verified ? 'teal' : 'red'}
          title={health.verified ? 'The provider answers' : 'The provider does not answer yet'}
          role="status"
        >
          {health.message}
          {health.missing_models.length > 0 && (
            <Text fz="sm" mt={4}>
              Missing models: {health.missing_models.join(', ')}
            </Text>
          )}
        </Alert>
      )}
      <Group justify="flex-end" gap="xs">
        <Button
          variant="default"
          onClick={() => {
            setDraft(draftOf(llm));
            setFailure(null);
            setCloudErrors({});
          }}
        >
          Undo changes
        </Button>
        <Button variant="light" onClick={() => void check()} loading={health === 'checking'}>
          Verify the saved provider
        </Button>
        <Button onClick={() => void save()} loading={saving}>
          Save and verify
        </Button>
      </Group>
    </Stack>
  );
}

type CloudErrors = Partial<Record<'apiKey' | 'baseUrl' | 'model', string>>;
