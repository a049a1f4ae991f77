import { useState } from 'react';
import { Alert, Autocomplete, Button, Group, Modal, Radio, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { nodeTagEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { maxMergedNodes, nodeMergeEndpoints } from '@rhizome/contracts/api/node-merge';
import { api } from '../../lib/api.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { countOf } from '../../lib/format.ts';
import { messageOf } from '../../lib/api.ts';
import { announceGraphChanged } from '../../lib/graph-changes.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { queueGraphBatch, type GraphOperation } from '../../components/bulk/graph-batch.ts';
import type { BulkJob } from '../../components/bulk/use-bulk-job.ts';
import type { Selection } from '../../components/bulk/use-selection.ts';
import type { Entity } from './use-entity-list.ts';
import { useTemplatesOf } from './use-templates-of.ts';

type Dialog = 'delete' | 'retype' | 'merge' | 'tag';

/**
 * Delete, change the type of, tag or merge the selected entities: delete and retype run as queue tasks,
 * tagging is sent a part at a time; each reports in the bulk dialog.
 */
export function EntityBulkActions({
  selection,
  rows,
  allIds,
  onJob,
  onDone,
}: {
  selection: Selection;
  rows: Entity[];
  allIds: () => Promise<string[]>;
  onJob: (job: BulkJob) => void;
  onDone: () => void;
}) {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [tagName, setTagName] = useState('');
  const tags = useEndpoint(nodeTagEndpoints.list);
  const templates = useTemplatesOf('node');
  const { busy, failure, run } = useSubmit();
  const close = () => setDialog(null);
  const what = countOf(selection.count, 'entity', 'entities');
  const mergeable = !selection.allMatching && selection.count >= 2 && selection.count <= maxMergedNodes + 1;

  const queue = (title: string, operation: (id: string) => GraphOperation) =>
    run(async () => {
      const ids = selection.allMatching ? await allIds() : selection.ids;
      onJob(await queueGraphBatch('nodes', ids.map(operation), title));
      announceGraphChanged();
      close();
      onDone();
    });

  const tag = () =>
    run(async () => {
      const ids = selection.allMatching ? await allIds() : selection.ids;
      // Creating a name that exists, in any case, answers the existing tag.
      const created = await api.call(nodeTagEndpoints.create, { body: { name: tagName.trim() } });
      onJob({
        kind: 'requests',
        title: `Tagging ${what} “${created.name}”`,
        action: 'tag',
        options: { tag_id: created.id },
        ids,
        outcomes: [],
      });
      setTagName('');
      close();
      onDone();
    });

  return (
    <>
      <Button size="xs" variant="default" onClick={() => setDialog('retype')}>
        Change type
      </Button>
      <Button size="xs" variant="default" onClick={() => setDialog('tag')}>
        Tag
      </Button>
      <Button
        size="xs"
        variant="default"
        onClick={() => setDialog('merge')}
        disabled={!mergeable}
        title={mergeable ? undefined : `Select 2 to ${maxMergedNodes + 1} entities on view to merge them`}
      >
        Merge
      </Button>
      <Button size="xs" color="red" variant="light" onClick={() => setDialog('delete')}>
        Delete
      </Button>
      <ConfirmDelete
        opened={dialog === 'delete'}
        title={`Delete ${what}?`}
        onKeep={close}
        busy={busy}
        onDelete={() => void queue(`Deleting ${what}`, (id) => ({ operation: 'delete', data: { id } }))}
      >
        {`Their relationships and citations go with them. This runs in the background; a dialog shows how it goes.`}
      </ConfirmDelete>
      <Modal opened={dialog === 'retype'} onClose={close} title={`Change the type of ${what}`}>
        <Stack gap="sm">
          <Select
            label="New type"
            data={templates.options}
            value={templateId}
            onChange={setTemplateId}
            searchable
            data-autofocus
          />
          <Text fz="sm" c="dimmed">
            Each entity keeps its id, relationships and citations; its properties are checked against the new type.
          </Text>
          {failure && <Alert color="red">{typeof failure === 'string' ? failure : failure.message}</Alert>}
          <Group justify="flex-end">
            <Button
              disabled={!templateId}
              loading={busy}
              onClick={() =>
                templateId &&
                void queue(`Changing the type of ${what} to ${templates.nameOf(templateId)}`, (id) => ({
                  operation: 'update',
                  data: { id, template_id: templateId },
                }))
              }
            >
              Change type
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dialog === 'tag'} onClose={close} title={`Tag ${what}`}>
        <Stack gap="sm">
          <Autocomplete
            label="Tag"
            description="An existing entity tag, or a new name"
            data={(tags.data ?? []).map((known) => known.name)}
            value={tagName}
            onChange={setTagName}
            maxLength={64}
            data-autofocus
          />
          {failure && <Alert color="red">{typeof failure === 'string' ? failure : failure.message}</Alert>}
          <Group justify="flex-end">
            <Button disabled={!tagName.trim()} loading={busy} onClick={() => void tag()}>
              Tag
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={dialog === 'merge'} onClose={close} title={`Merge ${what} into one`}>
        {dialog === 'merge' && (
          <MergeSelected
            ids={selection.ids}
            rows={rows}
            onDone={() => {
              close();
              onDone();
            }}
          />
        )}
      </Modal>
    </>
  );
}

/** Picks which selected entity stays; the others merge into it. */
function MergeSelected({ ids, rows, onDone }: { ids: string[]; rows: Entity[]; onDone: () => void }) {
  const names = new Map(rows.map((row) => [row.id, row.label]));
  const [kept, setKept] = useState<string>(ids[0]);
  const merge = useAction(nodeMergeEndpoints.merge);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setError(null);
    try {
      const result = await merge.run({
        params: { node_id: kept },
        body: { node_ids: ids.filter((id) => id !== kept) },
      });
      announceGraphChanged();
      notifications.show({
        color: 'teal',
        message: `Merged into ${result.node.label}; you can undo it from Duplicates.`,
      });
      onDone();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <Stack gap="sm">
      <Radio.Group
        label="Keep this entity"
        description="The others become its aliases and move their links to it."
        value={kept}
        onChange={setKept}
      >
        <Stack gap={6} mt={6}>
          {ids.map((id) => (
            <Radio key={id} value={id} label={names.get(id) ?? id} />
          ))}
        </Stack>
      </Radio.Group>
      {error && <Alert color="red">{error}</Alert>}
      <Group justify="flex-end">
        <Button loading={merge.pending} onClick={() => void submit()}>
          Merge
        </Button>
      </Group>
    </Stack>
  );
}
