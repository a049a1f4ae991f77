import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { RequestError } from '@rhizome/client';
import type { Draft } from '../../../components/PropertyField.tsx';
import { FormFailure } from '../../../components/canvas/FormFailure.tsx';
import { useSubmit } from '../../../lib/use-submit.ts';
import { PropertyFields, propertiesOf } from '../../entities/PropertyFields.tsx';
import { useTemplatesOf } from '../../entities/use-templates-of.ts';
import type { EntityInput } from './use-canvas-edits.ts';

/** A new entity where the canvas was clicked: its type, name and the type's properties. */
export function CreateEntityModal({
  opened,
  onClose,
  onCreate,
}: {
  opened: boolean;
  onClose: () => void;
  onCreate: (input: EntityInput) => Promise<unknown>;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="New entity here">
      {opened && <CreateEntityForm onCreate={onCreate} onDone={onClose} />}
    </Modal>
  );
}

function CreateEntityForm({
  onCreate,
  onDone,
}: {
  onCreate: (input: EntityInput) => Promise<unknown>;
  onDone: () => void;
}) {
  const templates = useTemplatesOf('node');
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [label, setLabel] = useState('');
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const { busy, failure, run } = useSubmit();
  const definitions = templates.list.find((template) => template.id === templateId)?.properties ?? [];
  const issue = (name: string) => (failure instanceof RequestError ? failure.issueFor(name) : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!templateId) return;
    void run(async () => {
      await onCreate({ templateId, label: label.trim(), properties: propertiesOf(definitions, drafts) });
      onDone();
    });
  };
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
        <FormFailure failure={failure} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={!templateId || !label.trim()}>
            Create entity
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
