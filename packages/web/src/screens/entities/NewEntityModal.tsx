import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { RequestError } from '@rhizome/client';
import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { announceGraphChanged } from '../../lib/graph-changes.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import type { Draft } from '../../components/PropertyField.tsx';
import { PropertyFields, propertiesOf } from './PropertyFields.tsx';
import { useTemplatesOf } from './use-templates-of.ts';

/** Creates an entity by hand: its type, name and the type's properties; then opens its page. */
export function NewEntityModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="New entity">
      {opened && <NewEntityForm />}
    </Modal>
  );
}

function NewEntityForm() {
  const templates = useTemplatesOf('node');
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [label, setLabel] = useState('');
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const create = useAction(nodeEndpoints.create);
  const navigate = useNavigate();
  const { busy, failure, run } = useSubmit();
  const definitions = templates.list.find((template) => template.id === templateId)?.properties ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!templateId) return;
    void run(async () => {
      const node = await create.run({
        body: { template_id: templateId, label: label.trim(), properties: propertiesOf(definitions, drafts) },
      });
      announceGraphChanged();
      navigate(`/entities/${encodeURIComponent(node.id)}`);
    });
  };
  const issue = (name: string) => (failure instanceof RequestError ? failure.issueFor(name) : undefined);
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <Select
          label="Type"
          data={templates.options}
          value={templateId}
          onChange={setTemplateId}
          searchable
          required
          data-autofocus
          error={issue('template_id')}
        />
        <TextInput
          label="Name"
          value={label}
          onChange={(event) => setLabel(event.currentTarget.value)}
          required
          error={issue('label')}
        />
        <PropertyFields
          definitions={definitions}
          drafts={drafts}
          failure={failure}
          onChange={(name, value) => setDrafts((current) => ({ ...current, [name]: value }))}
        />
        {typeof failure === 'string' && <Alert color="red">{failure}</Alert>}
        {failure instanceof RequestError && failure.issues.length === 0 && <Alert color="red">{failure.message}</Alert>}
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={!templateId || !label.trim()}>
            Create entity
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
