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
 * A relationship's name and its template's properties, saved (or deleted) through the callbacks (their
 * failures show in the form). Properties outside the template (the extraction's confidence, say) are
 * kept as they are. A new relationship starts from an empty one and has nothing to delete.
 */
export function RelationshipForm({
  edge,
  definitions,
  onSave,
  onDelete,
  before,
  autoFocus = false,
  saveLabel = 'Save relationship',
  complete = true,
}: {
  edge: { label: string; properties: Record<string, unknown> };
  definitions: PropertyDefinition[];
  onSave: (change: RelationshipChange) => Promise<void>;
  /** Offers deleting the relationship when given. */
  onDelete?: () => Promise<void>;
  /** Shown above the fields (the canvas names the type there; a new relationship picks its ends and type). */
  before?: ReactNode;
  autoFocus?: boolean;
  saveLabel?: string;
  /** Whether what `before` asks for is filled in, so the relationship can be saved. */
  complete?: boolean;
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
    if (!complete) return;
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
        <Group justify={onDelete ? 'space-between' : 'flex-end'}>
          {onDelete && (
            <Button color="red" variant="light" onClick={() => setDeleting(true)}>
              Delete relationship
            </Button>
          )}
          <Button type="submit" loading={busy} disabled={!label.trim() || !complete}>
            {saveLabel}
          </Button>
        </Group>
      </Stack>
      {onDelete && (
        <ConfirmDelete
          opened={deleting}
          title="Delete this relationship?"
          busy={busy}
          onKeep={() => setDeleting(false)}
          onDelete={() => void run(onDelete)}
        >
          The entities at its two ends stay.
        </ConfirmDelete>
      )}
    </form>
  );
}
