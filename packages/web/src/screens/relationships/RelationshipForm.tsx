import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { RequestError } from '@rhizome/client';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { FormFailure } from '../../components/canvas/FormFailure.tsx';
import { toDraft, type Draft, type PropertyDefinition } from '../../components/PropertyField.tsx';
import { useSubmit } from '../../lib/use-submit.ts';
import { PropertyFields, propertiesOf } from '../entities/PropertyFields.tsx';

export interface RelationshipChange {
  label: string;
  properties: Record<string, unknown>;
}

/**
 * A relationship's name and its template's properties, saved or deleted through the callbacks (their
 * failures show in the form). Properties outside the template (the extraction's confidence, say) are
 * kept as they are.
 */
export function RelationshipForm({
  edge,
  definitions,
  onSave,
  onDelete,
  before,
  autoFocus = false,
}: {
  edge: { label: string; properties: Record<string, unknown> };
  definitions: PropertyDefinition[];
  onSave: (change: RelationshipChange) => Promise<void>;
  onDelete: () => Promise<void>;
  /** Shown above the fields (the canvas names the type there). */
  before?: ReactNode;
  autoFocus?: boolean;
}) {
  const [label, setLabel] = useState(edge.label);
  const [drafts, setDrafts] = useState<Record<string, Draft>>(() =>
    Object.fromEntries(
      definitions.map((definition) => [definition.name, toDraft(definition, edge.properties[definition.name])]),
    ),
  );
  const [deleting, setDeleting] = useState(false);
  const { busy, failure, run } = useSubmit();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const defined = new Set(definitions.map((definition) => definition.name));
    const others = Object.fromEntries(Object.entries(edge.properties).filter(([key]) => !defined.has(key)));
    void run(() => onSave({ label: label.trim(), properties: { ...others, ...propertiesOf(definitions, drafts) } }));
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="sm" maw={640}>
        {before}
        <TextInput
          label="Relationship"
          value={label}
          onChange={(event) => setLabel(event.currentTarget.value)}
          required
          data-autofocus={autoFocus || undefined}
          error={failure instanceof RequestError ? failure.issueFor('label') : undefined}
        />
        <PropertyFields
          definitions={definitions}
          drafts={drafts}
          failure={failure}
          onChange={(name, value) => setDrafts((current) => ({ ...current, [name]: value }))}
        />
        <FormFailure failure={failure} />
        <Group justify="space-between">
          <Button color="red" variant="light" onClick={() => setDeleting(true)}>
            Delete relationship
          </Button>
          <Button type="submit" loading={busy} disabled={!label.trim()}>
            Save relationship
          </Button>
        </Group>
      </Stack>
      <ConfirmDelete
        opened={deleting}
        title="Delete this relationship?"
        busy={busy}
        onKeep={() => setDeleting(false)}
        onDelete={() => void run(onDelete)}
      >
        The entities at its two ends stay.
      </ConfirmDelete>
    </form>
  );
}
