import { Anchor, Badge, Breadcrumbs, Code, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { edgeEndpoints, nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import { humanise } from '../../lib/format.ts';
import { announceGraphChanged } from '../../lib/graph-changes.ts';
import { templateLabel } from '../../lib/graph-labels.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useEndpoint, useEndpointIfFound } from '../../lib/data/use-endpoint.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import type { PropertyDefinition } from '../../components/PropertyField.tsx';
import { RelationshipEvidence } from './RelationshipEvidence.tsx';
import { RelationshipForm } from './RelationshipForm.tsx';
import type { Relationship } from './use-relationship-page.ts';

/**
 * A relationship's page: its two ends, its label and properties (edited by its template's types), delete,
 * and the sentences of the sources that state it.
 */
export default function RelationshipDetail() {
  const { edgeId = '' } = useParams();
  const edge = useEndpoint(edgeEndpoints.get, { params: { edge_id: edgeId } });
  const from = useEndpoint(nodeEndpoints.get, edge.data ? { params: { node_id: edge.data.source_node_id } } : null);
  const to = useEndpoint(nodeEndpoints.get, edge.data ? { params: { node_id: edge.data.target_node_id } } : null);
  const template = useEndpointIfFound(
    templateEndpoints.get,
    edge.data ? { params: { template_id: edge.data.template_id } } : null,
  );
  if (edge.error)
    return (
      <ErrorNotice title="Could not open the relationship" message={edge.error} onRetry={() => void edge.reload()} />
    );
  if (!edge.data || template.data === undefined) return <Skeleton h={300} />;
  const detail = edge.data;
  const title = `${from.data?.label ?? '…'} ${humanise(detail.label)} ${to.data?.label ?? '…'}`;
  return (
    <Stack gap="md">
      <Breadcrumbs>
        <Anchor component={Link} to="/relationships" fz="sm">
          Relationships
        </Anchor>
        <span>{humanise(detail.label)}</span>
      </Breadcrumbs>
      <PageHeader title={title} />
      <Group gap="xs">
        <Badge variant="light" tt="none">
          {template.data ? templateLabel(template.data.name) : detail.template_id}
        </Badge>
        <Anchor component={Link} to={`/entities/${encodeURIComponent(detail.source_node_id)}`} fz="sm">
          From {from.data?.label ?? 'its start'}
        </Anchor>
        <Text span fz="sm" c="dimmed">
          →
        </Text>
        <Anchor component={Link} to={`/entities/${encodeURIComponent(detail.target_node_id)}`} fz="sm">
          To {to.data?.label ?? 'its end'}
        </Anchor>
      </Group>
      <RelationshipEditor key={detail.updated_at} edge={detail} definitions={template.data?.properties ?? []} />
      <Stack gap="xs" component="section" aria-labelledby="relationship-evidence">
        <Title order={2} fz="lg" id="relationship-evidence">
          Evidence
        </Title>
        <RelationshipEvidence edgeId={detail.id} />
      </Stack>
      <details>
        <summary>Raw JSON</summary>
        <Code block aria-label="The relationship as JSON" tabIndex={0} mt={4} style={{ whiteSpace: 'pre-wrap' }}>
          {JSON.stringify(detail, null, 2)}
        </Code>
      </details>
    </Stack>
  );
}

function RelationshipEditor({ edge, definitions }: { edge: Relationship; definitions: PropertyDefinition[] }) {
  const update = useAction(edgeEndpoints.update);
  const remove = useAction(edgeEndpoints.remove);
  const navigate = useNavigate();
  return (
    <RelationshipForm
      edge={edge}
      definitions={definitions}
      onSave={async (change) => {
        await update.run({ params: { edge_id: edge.id }, body: change });
        announceGraphChanged();
        notifications.show({ color: 'teal', message: 'Relationship saved.' });
      }}
      onDelete={async () => {
        await remove.run({ params: { edge_id: edge.id } });
        announceGraphChanged();
        notifications.show({ color: 'teal', message: 'Relationship deleted.' });
        navigate('/relationships', { replace: true });
      }}
    />
  );
}
