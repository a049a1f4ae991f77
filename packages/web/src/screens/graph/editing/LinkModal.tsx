import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { RequestError } from '@rhizome/client';
import { EntityPicker } from '../../../components/canvas/EntityPicker.tsx';
import { FormFailure } from '../../../components/canvas/FormFailure.tsx';
import type { Draft } from '../../../components/PropertyField.tsx';
import type { KnowledgeGraph } from '../../../lib/graph-model.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { PropertyFields, propertiesOf } from '../../entities/PropertyFields.tsx';
import { RelationshipTypeSelect, useRelationshipType } from '../../relationships/RelationshipTypeSelect.tsx';
import type { LinkInput } from './use-canvas-edits.ts';

/** The plain relationship type every database has: offered first. */

export interface LinkRequest {
  from: string;
  /** Known when the target was clicked or dragged to; else it is picked here by name. */
  to: string | null;
}

/** A relationship from one entity to another: the target (unless given), the type, its name and properties. */
export function LinkModal({
  graph,
  request,
  onClose,
  onLink,
}: {
  graph: KnowledgeGraph;
  request: LinkRequest | null;
  onClose: () => void;
  onLink: (input: LinkInput) => Promise<unknown>;
}) {
  const from = request && graph.hasNode(request.from) ? graph.getNodeAttribute(request.from, 'label') : '';
  return (
    <Modal opened={request !== null} onClose={onClose} title={`Link ${from} to…`}>
      {request && <LinkForm graph={graph} request={request} onLink={onLink} onDone={onClose} />}
    </Modal>
  );
}

function LinkForm({
  graph,
  request,
  onLink,
  onDone,
}: {
  graph: KnowledgeGraph;
  request: LinkRequest;
  onLink: (input: LinkInput) => Promise<unknown>;
  onDone: () => void;
}) {
  const type = useRelationshipType();
  const { templateId, definitions } = type;
  const [to, setTo] = useState<string | null>(request.to);
  const [label, setLabel] = useState('');
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const { busy, failure, run } = useSubmit();
  const issue = (name: string) => (failure instanceof RequestError ? failure.issueFor(name) : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!to || !templateId) return;
    void run(async () => {
      await onLink({
        from: request.from,
        to,
        templateId,
        label: label.trim(),
        properties: propertiesOf(definitions, drafts),
      });
      onDone();
    });
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        {request.to ? (
          <Text fz="sm">
            To <b>{graph.hasNode(request.to) ? graph.getNodeAttribute(request.to, 'label') : request.to}</b>
          </Text>
        ) : (
          <EntityPicker
            graph={graph}
            label="Target entity"
            value={to}
            onChange={setTo}
            exclude={request.from}
            autoFocus
          />
        )}
        <TextInput
          label="Relationship"
          description="As it reads from the first to the second, e.g. works at"
          value={label}
          onChange={(event) => setLabel(event.currentTarget.value)}
          required
          data-autofocus={request.to ? true : undefined}
          error={issue('label')}
        />
        <RelationshipTypeSelect type={type} error={issue('template_id')} />
        <PropertyFields
          definitions={definitions}
          drafts={drafts}
          failure={failure}
          onChange={(name, value) => setDrafts((current) => ({ ...current, [name]: value }))}
        />
        <FormFailure failure={failure} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={!to || !templateId || !label.trim()}>
            Link
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
