import { useState } from 'react';
import {
  ActionIcon,
  Autocomplete,
  Button,
  Group,
  Menu,
  Modal,
  Progress,
  Select,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconChecks,
  IconChevronDown,
  IconDots,
  IconEye,
  IconEyeOff,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlayerStop,
  IconRefresh,
  IconTag,
  IconTagOff,
  IconTrash,
} from '@tabler/icons-react';
import { extractionEndpoints } from '@rhizome/contracts/api/extraction';
import { opsEndpoints } from '@rhizome/contracts/api/ops';
import { sourcePauseEndpoints } from '@rhizome/contracts/api/queue';
import { sourceEndpoints, type SourceBulkAction, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import { api, messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { sentenceCase } from '../../lib/sentence-case.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import {
  startSourceJob,
  type SourceListFilter,
  type SourceRequestAction,
} from '../../components/bulk/source-requests.ts';
import type { BulkJob } from '../../components/bulk/use-bulk-job.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

const busyStatuses = new Set<SourceResponseBody['status']>([
  'pending',
  'indexing',
  'vision_pending',
  'extracting',
  'mcp_extracting',
  'extracted',
  'committing',
]);

const listReads = [
  { tag: sourceEndpoints.list.tag, endpoint: sourceEndpoints.list },
  { tag: opsEndpoints.dashboard.tag, endpoint: opsEndpoints.dashboard },
];

/** Everything that can be done to one source; each action reports its own failure. */
export function SourceActions({
  source,
  onDeleted,
  onReview,
  defaultOpened = false,
}: {
  source: SourceResponseBody;
  /** After a delete, for a screen that showed only this source. */
  onDeleted?: () => void;
  onReview: (source: SourceResponseBody) => void;
  defaultOpened?: boolean;
}) {
  const name = source.title ?? source.filename ?? source.id;
  const resume = useAction(sourcePauseEndpoints.resume);
  const pause = useAction(sourcePauseEndpoints.pause);
  const stop = useAction(sourceEndpoints.stopProcessing);
  const reextract = useAction(extractionEndpoints.start);
  // The source's own reads would answer 404 before its page is left.
  const deleteSource = useAction(sourceEndpoints.delete, { refreshes: listReads });
  const run = async (what: string, action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      notifications.show({ color: 'red', title: `Could not ${what} “${name}”`, message: messageOf(error) });
    }
  };
  const params = { source_id: source.id };
  const busy = busyStatuses.has(source.status);
  const canExtract =
    source.status === 'indexed' ||
    source.status === 'extracted' ||
    source.status === 'committed' ||
    (source.status === 'error' && source.chunk_count > 0);

  const [deleting, { open: askDelete, close: keep }] = useDisclosure();
  const remove = () => {
    keep();
    void run('delete', async () => {
      await deleteSource.run({ params });
      onDeleted?.();
    });
  };

  return (
    <>
      <ConfirmDelete opened={deleting} onKeep={keep} onDelete={remove} title={`Delete “${name}”?`}>
        Its chunks, citations and the entities and relationships only it supports are removed. This cannot be undone.
      </ConfirmDelete>
      <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {source.status === 'awaiting_confirmation' && (
            <Menu.Item leftSection={<IconChecks size={16} />} onClick={() => onReview(source)}>
              Review the domain…
            </Menu.Item>
          )}
          {source.paused ? (
            <Menu.Item
              leftSection={<IconPlayerPlay size={16} />}
              onClick={() => void run('resume', () => resume.run({ params }))}
            >
              Resume
            </Menu.Item>
          ) : (
            <Menu.Item
              leftSection={<IconPlayerPause size={16} />}
              disabled={!busy}
              onClick={() => void run('pause', () => pause.run({ params, body: { reason: null } }))}
            >
              Pause
            </Menu.Item>
          )}
          <Menu.Item
            leftSection={<IconPlayerStop size={16} />}
            disabled={!busy}
            onClick={() => void run('stop', () => stop.run({ params }))}
          >
            Stop processing
          </Menu.Item>
          <Menu.Item
            leftSection={<IconRefresh size={16} />}
            disabled={!canExtract}
            onClick={() => void run('re-extract', () => reextract.run({ params, body: { force: true } }))}
          >
            Re-extract
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item
            color="var(--mantine-color-red-light-color)"
            leftSection={<IconTrash size={16} />}
            onClick={askDelete}
          >
            Delete…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </>
  );
}

/** The part of a confirmation proposal the bulk review shows: the detected domain and its score. */
function detectedDomainOf(source: SourceResponseBody): { domain: string; score: number } | null {
  const proposal = source.detection_proposal as { detected_domain?: unknown; confidence?: unknown } | null;
  if (!proposal || typeof proposal.detected_domain !== 'string') return null;
  return { domain: proposal.detected_domain, score: Number(proposal.confidence ?? 0) };
}

/** Parked sources the bulk review lists by name; the rest are counted. */
const reviewedShown = 12;

/**
 * The actions for the sources ticked in the list: delete, confirm the detected domains, re-extract, pause,
 * resume, enable, disable, tag and untag. Delete, enable, disable, tag and untag run as a server task on
 * the sources chosen (or on every one the filter matches), re-extraction as a queue task of its own; the
 * others are sent a part at a time. Each reports in the bulk dialog.
 */
export function SourceBulkActions({
  chosen,
  matching,
  onJob,
}: {
  /** The sources the selection holds. */
  chosen: SourceResponseBody[];
  /** The list's filter when the selection is every source it matches. */
  matching?: SourceListFilter;
  onJob: (job: BulkJob) => void;
}) {
  const [dialog, setDialog] = useState<'delete' | 'confirm' | 'tag' | 'untag' | null>(null);
  const [tagName, setTagName] = useState('');
  const tags = useEndpoint(sourceEndpoints.listTags);
  const { busy, failure, run } = useSubmit();
  const what = countOf(chosen.length, 'source');
  const ids = chosen.map((source) => source.id);
  const parked = chosen.filter((source) => source.status === 'awaiting_confirmation');

  const send = (
    title: string,
    action: SourceRequestAction,
    chosenIds: string[],
    options: Record<string, string> = {},
  ) => {
    onJob({ kind: 'requests', title, action, options, ids: chosenIds, outcomes: [] });
    setDialog(null);
    setTagName('');
  };
  const startJob = (title: string, action: SourceBulkAction, tagId?: string) =>
    run(async () => {
      onJob(await startSourceJob(title, action, matching ? { matching } : { ids }, tagId));
      setDialog(null);
      setTagName('');
    });
  const reextract = () =>
    run(async () => {
      const queued = await api.call(extractionEndpoints.bulkStart, { body: { source_ids: ids } });
      onJob({ title: `Re-extracting ${what}`, taskIds: [queued.task_id] });
    });
  const tag = () =>
    run(async () => {
      // Creating a name that exists, in any case, answers the existing tag.
      const created = await api.call(sourceEndpoints.createTag, { body: { name: tagName.trim() } });
      await startJob(`Tagging ${what} “${created.name}”`, 'tag', created.id);
    });
  const untagId = (tags.data ?? []).find((known) => known.name === tagName)?.id;

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="xs" variant="default" rightSection={<IconChevronDown size={14} />} loading={busy}>
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconChecks size={16} />}
            disabled={!parked.length}
            onClick={() => setDialog('confirm')}
          >
            Confirm the domains…
          </Menu.Item>
          <Menu.Item leftSection={<IconRefresh size={16} />} onClick={() => void reextract()}>
            Re-extract
          </Menu.Item>
          <Menu.Item leftSection={<IconPlayerPause size={16} />} onClick={() => send(`Pausing ${what}`, 'pause', ids)}>
            Pause
          </Menu.Item>
          <Menu.Item leftSection={<IconPlayerPlay size={16} />} onClick={() => send(`Resuming ${what}`, 'resume', ids)}>
            Resume
          </Menu.Item>
          <Menu.Item leftSection={<IconEye size={16} />} onClick={() => void startJob(`Enabling ${what}`, 'enable')}>
            Enable
          </Menu.Item>
          <Menu.Item
            leftSection={<IconEyeOff size={16} />}
            onClick={() => void startJob(`Disabling ${what}`, 'disable')}
          >
            Disable
          </Menu.Item>
          <Menu.Item leftSection={<IconTag size={16} />} onClick={() => setDialog('tag')}>
            Tag…
          </Menu.Item>
          <Menu.Item leftSection={<IconTagOff size={16} />} onClick={() => setDialog('untag')}>
            Untag…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Button size="xs" color="red" variant="light" onClick={() => setDialog('delete')}>
        Delete
      </Button>
      {failure && (
        <Text fz="xs" c="red" role="alert">
          {typeof failure === 'string' ? failure : failure.message}
        </Text>
      )}
      <ConfirmDelete
        opened={dialog === 'delete'}
        title={`Delete ${what}?`}
        onKeep={() => setDialog(null)}
        busy={busy}
        onDelete={() => void startJob(`Deleting ${what}`, 'delete')}
      >
        Their chunks, citations and the entities and relationships only they support are removed. This cannot be undone;
        a dialog shows how it goes.
      </ConfirmDelete>
      <Modal
        opened={dialog === 'confirm'}
        onClose={() => setDialog(null)}
        title={`Confirm the domains of ${countOf(parked.length, 'source')}`}
        size="lg"
      >
        <Stack gap="sm">
          <Text fz="sm">
            Each source is extracted with the domain detected for it. To choose another for one, open its review from
            the list. Sources not waiting for a confirmation are left out.
          </Text>
          <Table aria-label="Detected domains" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Source</Table.Th>
                <Table.Th>Detected domain</Table.Th>
                <Table.Th w={150}>Confidence</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {parked.slice(0, reviewedShown).map((source) => {
                const detected = detectedDomainOf(source);
                const percent = detected ? Math.round(100 * Math.min(1, Math.max(0, detected.score))) : null;
                const name = source.title ?? source.filename ?? source.id;
                return (
                  <Table.Tr key={source.id}>
                    <Table.Td fz="sm">{name}</Table.Td>
                    <Table.Td fz="sm">{detected ? sentenceCase(detected.domain) : 'The default domain'}</Table.Td>
                    <Table.Td>
                      {percent !== null && (
                        <Group gap={6} wrap="nowrap">
                          <Progress value={percent} w={80} aria-label={`${name}: ${percent}% confidence`} />
                          <Text fz="xs" c="dimmed">
                            {percent}%
                          </Text>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          {parked.length > reviewedShown && (
            <Text fz="sm" c="dimmed">
              and {countOf(parked.length - reviewedShown, 'more source')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              Later
            </Button>
            <Button
              onClick={() =>
                send(
                  `Confirming the domains of ${countOf(parked.length, 'source')}`,
                  'confirm',
                  parked.map((source) => source.id),
                )
              }
            >
              Confirm and extract
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={dialog === 'tag' || dialog === 'untag'}
        onClose={() => setDialog(null)}
        title={`${dialog === 'tag' ? 'Tag' : 'Untag'} ${what}`}
      >
        <Stack gap="sm">
          {dialog === 'tag' ? (
            <Autocomplete
              label="Tag"
              description="An existing tag, or a new name"
              data={(tags.data ?? []).map((known) => known.name)}
              value={tagName}
              onChange={setTagName}
              maxLength={64}
              data-autofocus
            />
          ) : (
            <Select
              label="Tag"
              data={(tags.data ?? []).map((known) => known.name)}
              value={tagName || null}
              onChange={(name) => setTagName(name ?? '')}
              data-autofocus
            />
          )}
          <Group justify="flex-end">
            <Button
              disabled={dialog === 'tag' ? !tagName.trim() : !untagId}
              loading={busy}
              onClick={() =>
                dialog === 'tag' ? void tag() : void startJob(`Untagging ${what} “${tagName}”`, 'untag', untagId)
              }
            >
              {dialog === 'tag' ? 'Tag' : 'Untag'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
