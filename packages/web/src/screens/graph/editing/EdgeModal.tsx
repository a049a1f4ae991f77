import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { RequestError } from '@rhizome/client';
import { edgeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { ConfirmDelete } from '../../../components/ConfirmDelete.tsx';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { FormFailure } from '../../../components/canvas/FormFailure.tsx';
import { toDraft, type Draft, type PropertyDefinition } from '../../../components/PropertyField.tsx';
import { useEndpoint, useEndpointIfFound } from '../../../lib/data/use-endpoint.ts';
import { templateLabel } from '../../../lib/graph-labels.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { PropertyFields, propertiesOf } from '../../entities/PropertyFields.tsx';
import type { CanvasEdits } from './use-canvas-edits.ts';

type Edge = ResponseOf<typeof edgeEndpoints.get>;

/** A relationship of the canvas: its name and its template's properties edited, or deleted. */
export function EdgeModal({
  edgeId,
  title,
  onClose,
  edits,
}: {
  edgeId: string | null;
  /** How the relationship reads ("Ada works at Acme"). */
  title: string;
  onClose: () => void;
  edits: Pick<CanvasEdits, 'saveEdge' | 'deleteEdge'>;
}) {
  return (
    <Modal opened={edgeId !== null} onClose={onClose} title={title || 'Relationship'}>
      {edgeId && <EdgeLoader edgeId={edgeId} edits={edits} onDone={onClose} />}
    </Modal>
  );
}

function EdgeLoader({
  edgeId,
  edits,
  onDone,
}: {
  edgeId: string;
  edits: Pick<CanvasEdits, 'saveEdge' | 'deleteEdge'>;
  onDone: () => void;
}) {
  const edge = useEndpoint(edgeEndpoints.get, { params: { edge_id: edgeId } });
  const template = useEndpointIfFound(
    templateEndpoints.get,
    edge.data ? { params: { template_id: edge.data.template_id } } : null,
  );
  if (edge.error) return <ErrorNotice title="Could not open the relationship" message={edge.error} />;
  if (!edge.data || template.data === undefined) return <Skeleton h={160} />;
  return (
    <EdgeForm
      edge={edge.data}
      typeName={template.data ? templateLabel(template.data.name) : edge.data.template_id}
      definitions={template.data?.properties ?? []}
      edits={edits}
      onDone={onDone}
    />
  );
}

function EdgeForm({
  edge,
  typeName,
  definitions,
  edits,
  onDone,
}: {
  edge: Edge;
  typeName: string;
  definitions: PropertyDefinition[];
  edits: Pick<CanvasEdits, 'saveEdge' | 'deleteEdge'>;
  onDone: () => void;
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
    // Properties outside the template (the extraction's confidence, say) are kept as they are.
    const defined = new Set(definitions.map((definition) => definition.name));
    const others = Object.fromEntries(Object.entries(edge.properties).filter(([key]) => !defined.has(key)));
    void run(async () => {
      await edits.saveEdge(edge.id, {
        label: label.trim(),
        properties: { ...others, ...propertiesOf(definitions, drafts) },
      });
      onDone();
    });
  };
  const remove = () =>
    void run(async () => {
      await edits.deleteEdge(edge.id);
      onDone();
    });
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          Type: {typeName}
        </Text>
        <TextInput
          label="Relationship"
          value={label}
          onChange={(event) => setLabel(event.currentTarget.value)}
          required
          data-autofocus
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
        onDelete={remove}
      >
        The entities at its two ends stay.
      </ConfirmDelete>
    </form>
  );
}
