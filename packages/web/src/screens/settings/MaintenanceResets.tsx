import { useState } from 'react';
import { Button, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { databaseEndpoints } from '@rhizome/contracts/api/databases';
import { queueEndpoints } from '@rhizome/contracts/api/queue';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { api, messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { useRefresh } from '../../lib/data/use-action.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { ConfirmedReset } from './ConfirmedReset.tsx';

const pollMs = 500;

/** The counts a knowledge wipe's task result gives. */
interface KnowledgeWipe {
  sources_deleted: number;
  nodes_deleted: number;
  edges_deleted: number;
}
const patienceMs = 60_000;

/** Waits for a queued task to end and answers its result (null when it did not complete). */
async function taskResult(taskId: string): Promise<unknown> {
  const deadline = Date.now() + patienceMs;
  while (Date.now() < deadline) {
    const task = await api.call(queueEndpoints.get, { params: { task_id: taskId } });
    if (task.status === 'completed')
      return (await api.call(queueEndpoints.result, { params: { task_id: taskId } })).result;
    if (task.status === 'failed' || task.status === 'cancelled') return null;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return null;
}

/** Scoped resets of the active database, each confirmed by typing its name, and the orphan clean-up. */
export function MaintenanceResets() {
  const current = useEndpoint(databaseEndpoints.current);
  const refresh = useRefresh();
  const [cleaning, setCleaning] = useState(false);
  const [cleanup, setCleanup] = useState<string | null>(null);
  const database = current.data?.current;

  async function cleanOrphans() {
    setCleaning(true);
    setCleanup('Queued…');
    try {
      const queued = await api.call(settingsEndpoints.cleanupOrphans);
      const result = (await taskResult(queued.task_id)) as { nodes_removed: number; edges_removed: number } | null;
      setCleanup(
        result
          ? `Removed ${countOf(result.nodes_removed, 'node')} and ${countOf(result.edges_removed, 'edge')}.`
          : `The clean-up (task ${queued.task_id}) did not complete: see the queue.`,
      );
      await refresh([{ tag: 'graph' }]);
    } catch (error) {
      setCleanup(messageOf(error));
    } finally {
      setCleaning(false);
    }
  }

  return (
    <Stack gap="md">
      <Title order={3}>Maintenance</Title>
      {database ? (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <ConfirmedReset
            title="Delete every chat"
            description={`Every conversation and message of the database “${database}”. Sources and the graph stay.`}
            database={database}
            action="Delete chats"
            run={async () => {
              const reset = await api.call(settingsEndpoints.resetChats);
              await refresh([{ tag: 'chats' }]);
              return `Deleted ${countOf(reset.data.chats_deleted, 'chat')}.`;
            }}
          />
          <ConfirmedReset
            title="Reset workflows"
            description="Deletes every workflow, trigger, user tool and run, then restores the system workflow that embeds new entities."
            database={database}
            action="Reset workflows"
            run={async () => {
              const reset = await api.call(settingsEndpoints.resetWorkflows);
              await refresh([{ tag: 'workflows' }]);
              return `Deleted ${countOf(reset.data.workflows_deleted, 'workflow')} and ${countOf(reset.data.triggers_deleted, 'trigger')}; the system workflow is back.`;
            }}
          />
          <ConfirmedReset
            title="Clear the task queue"
            description="Cancels queued and running tasks and removes finished ones with their results, so the queue statistics start anew."
            database={database}
            action="Clear queue"
            run={async () => {
              const reset = await api.call(settingsEndpoints.resetQueue);
              await refresh([{ tag: 'queue' }]);
              return `Cancelled ${countOf(reset.data.tasks_cancelled, 'task')}, removed ${countOf(reset.data.tasks_deleted, 'finished task')}.`;
            }}
          />
          <ConfirmedReset
            title="Reset the processing state"
            description="Deletes every extraction run, staged result and per-chunk attempt (prompts and answers) and the recovery events. Sources, passages, the graph and its citations stay; sources waiting for a commit are indexed again."
            database={database}
            action="Reset processing state"
            run={async () => {
              const { data } = await api.call(settingsEndpoints.resetSourceProcessing);
              await refresh([{ tag: 'sources' }]);
              return `Deleted ${countOf(data.extraction_jobs_deleted, 'extraction run')} and ${countOf(data.extraction_attempts_deleted, 'attempt')}.`;
            }}
          />
          <ConfirmedReset
            title="Delete the knowledge"
            description="Deletes every source with its files and passages, the graph's entities and relationships, their citations and vectors, and empties the search indexes. Templates, custom domains, chats, workflows and settings stay."
            database={database}
            action="Delete knowledge"
            run={async () => {
              const queued = await api.call(settingsEndpoints.resetKnowledge);
              const result = (await taskResult(queued.task_id)) as KnowledgeWipe | null;
              await refresh([{ tag: 'sources' }, { tag: 'graph' }]);
              return result
                ? `Deleted ${countOf(result.sources_deleted, 'source')}, ${countOf(result.nodes_deleted, 'entity', 'entities')} and ${countOf(result.edges_deleted, 'relationship')}.`
                : `The reset (task ${queued.task_id}) did not complete: see the queue.`;
            }}
          />
          <ConfirmedReset
            title="Reset everything"
            description="Leaves the database as new: the knowledge, every template but the built-in ones, custom domains, chats and workflows go, and the system workflow is restored. Settings and your account stay."
            database={database}
            action="Reset everything"
            run={async () => {
              const queued = await api.call(settingsEndpoints.resetAll, { body: { confirmation: 'CONFIRM' } });
              const result = (await taskResult(queued.task_id)) as KnowledgeWipe | null;
              await refresh([{ tag: 'sources' }, { tag: 'graph' }, { tag: 'chats' }, { tag: 'workflows' }]);
              return result
                ? `Deleted ${countOf(result.sources_deleted, 'source')} and ${countOf(result.nodes_deleted, 'entity', 'entities')}; the database is as new.`
                : `The reset (task ${queued.task_id}) did not complete: see the queue.`;
            }}
          />
        </SimpleGrid>
      ) : (
        <Text c="dimmed">{current.error ?? 'Loading the active database…'}</Text>
      )}
      <Paper withBorder p="md" radius="md">
        <Stack gap="xs" align="flex-start">
          <Title order={4}>Clean up orphans</Title>
          <Text size="sm" c="dimmed">
            Removes relationships whose entity or type is gone, and entities whose type is gone.
          </Text>
          <Button variant="light" onClick={() => void cleanOrphans()} loading={cleaning}>
            Clean up orphans
          </Button>
          {cleanup && (
            <Text size="sm" role="status">
              {cleanup}
            </Text>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
