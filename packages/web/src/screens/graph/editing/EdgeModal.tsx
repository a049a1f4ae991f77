import { Modal, Skeleton, Text } from '@mantine/core';
import { edgeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import type { PropertyDefinition } from '../../../components/PropertyField.tsx';
import { useEndpoint, useEndpointIfFound } from '../../../lib/data/use-endpoint.ts';
import { templateLabel } from '../../../lib/graph-labels.ts';
import { RelationshipForm } from '../../relationships/RelationshipForm.tsx';
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
  return (
    <RelationshipForm
      edge={edge}
      definitions={definitions}
      autoFocus
      before={
        <Text fz="sm" c="dimmed">
          Type: {typeName}
        </Text>
      }
      onSave={async (change) => {
        await edits.saveEdge(edge.id, change);
        onDone();
      }}
      onDelete={async () => {
        await edits.deleteEdge(edge.id);
        onDone();
      }}
    />
  );
}
