import { useState, type FormEvent } from 'react';
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { RequestError } from '@rhizome/client';
import type { Draft } from '../../components/PropertyField.tsx';
import { FormFailure } from '../../components/canvas/FormFailure.tsx';
import { useSubmit } from '../../lib/use-submit.ts';
import { PropertyFields, propertiesOf } from './PropertyFields.tsx';
import { useTemplatesOf } from './use-templates-of.ts';

/** What the entity form asks for: a type, a name and the type's properties. */
export interface EntityInput {
  templateId: string;
  label: string;
  properties: Record<string, unknown>;
}

/** A new entity's type, name and the type's properties; `onSubmit` makes it (its failure shows in the form). */
export function EntityForm({ onSubmit }: { onSubmit: (input: EntityInput) => Promise<void> }) {
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
    void run(() => onSubmit({ templateId, label: label.trim(), properties: propertiesOf(definitions, drafts) }));
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
