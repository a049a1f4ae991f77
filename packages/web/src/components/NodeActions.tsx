import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Menu, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconGitMerge, IconPencil, IconTag, IconTrash } from '@tabler/icons-react';
import { RequestError } from '@rhizome/client';
import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { nodeMergeEndpoints } from '@rhizome/contracts/api/node-merge';
import { searchEndpoints } from '@rhizome/contracts/api/search';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import { api } from '../lib/api.ts';
import { countOf } from '../lib/format.ts';
import { announceGraphChanged } from '../lib/graph-changes.ts';
import { useSubmit, type Failure } from '../lib/use-submit.ts';
import { useAction } from '../lib/data/use-action.ts';

export interface ActionNode {
  id: string;
  label: string;
  template_id: string;
  properties: Record<string, unknown>;
}

type Action = 'rename' | 'retype' | 'merge' | 'delete';

/** Rename, change the type, merge another entity into this one, delete: each in a dialog that says what will happen. */
export function NodeActions({
  node,
  onChanged,
  onReplaced,
  onDeleted,
}: {
  node: ActionNode;
  onChanged: () => void;
  onReplaced: (id: string) => void;
  onDeleted: () => void;
}) {
  const [action, setAction] = useState<Action | null>(null);
  const close = () => setAction(null);
  const done = (after: () => void, message: string) => {
    close();
    announceGraphChanged();
    notifications.show({ color: 'teal', message });
    after();
  };
  return (
    <>
      <Group gap={6}>
        <Button size="xs" variant="default" leftSection={<IconPencil size={14} />} onClick={() => setAction('rename')}>
          Rename
        </Button>
        <Button size="xs" variant="default" leftSection={<IconGitMerge size={14} />} onClick={() => setAction('merge')}>
          Merge
        </Button>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button size="xs" variant="default" aria-label="More actions" px={8}>
              <IconDots size={16} />
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconTag size={14} />} onClick={() => setAction('retype')}>
              Change type
            </Menu.Item>
            <Menu.Item
              color="var(--mantine-color-red-light-color)"
              leftSection={<IconTrash size={14} />}
              onClick={() => setAction('delete')}
            >
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Modal opened={action === 'rename'} onClose={close} title={`Rename ${node.label}`}>
        {action === 'rename' && <RenameForm node={node} onDone={() => done(onChanged, 'Renamed.')} />}
      </Modal>
      <Modal opened={action === 'retype'} onClose={close} title={`Change the type of ${node.label}`}>
        {action === 'retype' && <RetypeForm node={node} onDone={(id) => done(() => onReplaced(id), 'Type changed.')} />}
      </Modal>
      <Modal opened={action === 'merge'} onClose={close} title={`Merge into ${node.label}`} size="lg">
        {action === 'merge' && <MergeForm node={node} onCancel={close} onDone={() => done(onChanged, 'Merged.')} />}
      </Modal>
      <Modal opened={action === 'delete'} onClose={close} title={`Delete ${node.label}?`}>
        {action === 'delete' && (
          <DeleteForm node={node} onCancel={close} onDone={() => done(onDeleted, `${node.label} deleted.`)} />
        )}
      </Modal>
    </>
  );
}

function FailureAlert({ failure }: { failure: Failure }) {
  if (!failure) return null;
  const text =
    typeof failure === 'string' ? failure : [failure.message, ...failure.issues.map((issue) => issue.msg)].join(' ');
  return (
    <Alert color="red" role="alert">
      {text}
    </Alert>
  );
}

function RenameForm({ node, onDone }: { node: ActionNode; onDone: () => void }) {
  const update = useAction(nodeEndpoints.update);
  const [label, setLabel] = useState(node.label);
  const { busy, failure, run } = useSubmit();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await update.run({ params: { node_id: node.id }, body: { label: label.trim() } });
      onDone();
    });
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <TextInput
          label="Name"
          value={label}
          onChange={(event) => setLabel(event.currentTarget.value)}
          required
          data-autofocus
          error={failure instanceof RequestError ? failure.issueFor('label') : undefined}
        />
        {!(failure instanceof RequestError && failure.issueFor('label')) && <FailureAlert failure={failure} />}
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={!label.trim() || label.trim() === node.label}>
            Rename
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Retypes the node in place: it keeps its id, so links to it, its edges, citations and aliases stay. */
function RetypeForm({ node, onDone }: { node: ActionNode; onDone: (id: string) => void }) {
  const update = useAction(nodeEndpoints.update);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [templates, setTemplates] = useState<{ value: string; label: string }[]>([]);
  const { busy, failure, run } = useSubmit();
  useEffect(() => {
    void api
      .call(templateEndpoints.list, { query: { template_type: 'node', page_size: 1000 } })
      .then((page) =>
        setTemplates(
          page.data
            .filter((template) => template.id !== node.template_id)
            .map((template) => ({ value: template.id, label: template.name })),
        ),
      )
      .catch(() => setTemplates([]));
  }, [node.template_id]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!templateId) return;
    void run(async () => {
      await update.run({ params: { node_id: node.id }, body: { template_id: templateId } });
      onDone(node.id);
    });
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <Select
          label="New type"
          data={templates}
          value={templateId}
          onChange={setTemplateId}
          searchable
          required
          data-autofocus
        />
        <Text fz="sm" c="dimmed">
          Its relationships, citations and aliases stay with it; properties the new type does not accept are refused and
          named below.
        </Text>
        <FailureAlert failure={failure} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={!templateId}>
            Change type
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function MergeForm({ node, onCancel, onDone }: { node: ActionNode; onCancel: () => void; onDone: () => void }) {
  const merge = useAction(nodeMergeEndpoints.merge);
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<{ value: string; label: string }[]>([]);
  const [other, setOther] = useState<string | null>(null);
  const { busy, failure, run } = useSubmit();
  useEffect(() => {
    const text = query.trim();
    if (text.length < 2) return;
    const timer = setTimeout(() => {
      void api
        .call(searchEndpoints.search, { query: { q: `${text}*`, search_type: 'keyword', limit: 20 } })
        .then((result) =>
          setOptions(
            result.data.flatMap((hit) =>
              hit.node && hit.node.id !== node.id
                ? [{ value: hit.node.id, label: `${hit.node.label} (${countOf(hit.node.edge_count, 'relationship')})` }]
                : [],
            ),
          ),
        )
        .catch(() => setOptions([]));
    }, 200);
    return () => clearTimeout(timer);
  }, [query, node.id]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!other) return;
    void run(async () => {
      await merge.run({ params: { node_id: node.id }, body: { node_ids: [other] } });
      onDone();
    });
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <Text fz="sm">
          Pick the duplicate. Its relationships and citations move to <b>{node.label}</b>, its name becomes an alias,
          its properties fill the ones {node.label} lacks, and the duplicate is deleted. This cannot be undone.
        </Text>
        <Select
          label="Duplicate entity"
          placeholder="Type its name…"
          searchable
          searchValue={query}
          onSearchChange={setQuery}
          data={options}
          filter={({ options: all }) => all}
          value={other}
          onChange={setOther}
          nothingFoundMessage={query.trim().length >= 2 ? 'No other entity by that name' : 'Type at least two letters'}
          data-autofocus
          data-testid="merge-target"
        />
        <FailureAlert failure={failure} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={busy} disabled={!other}>
            Merge into {node.label}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DeleteForm({ node, onCancel, onDone }: { node: ActionNode; onCancel: () => void; onDone: () => void }) {
  // The entity's own reads would answer 404 before its panel closes.
  const remove = useAction(nodeEndpoints.remove, {
    refreshes: [{ tag: nodeEndpoints.list.tag, endpoint: nodeEndpoints.list }],
  });
  const { busy, failure, run } = useSubmit();
  return (
    <Stack gap="sm">
      <Text fz="sm">{node.label} goes with its relationships and citations. This cannot be undone.</Text>
      <FailureAlert failure={failure} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Keep it
        </Button>
        <Button
          color="red"
          loading={busy}
          onClick={() =>
            void run(async () => {
              await remove.run({ params: { node_id: node.id } });
              onDone();
            })
          }
        >
          Delete
        </Button>
      </Group>
    </Stack>
  );
}
