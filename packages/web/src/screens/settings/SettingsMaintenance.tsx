import { SimpleGrid, Stack } from '@mantine/core';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import type { Settings } from '@rhizome/contracts/settings';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { EmbeddingModels } from './EmbeddingModels.tsx';
import { LocalModels } from './LocalModels.tsx';
import { MaintenanceResets } from './MaintenanceResets.tsx';

/** Models of the local servers, the embedding model, and the scoped resets and clean-up. */
export function SettingsMaintenance() {
  const settings = useEndpoint(settingsEndpoints.get);
  const servers = ((settings.data as Settings | undefined)?.llm.localllm_instances ?? []).map(({ id, name }) => ({
    id,
    name,
  }));
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <LocalModels servers={servers} />
        <EmbeddingModels />
      </SimpleGrid>
      <MaintenanceResets />
    </Stack>
  );
}
