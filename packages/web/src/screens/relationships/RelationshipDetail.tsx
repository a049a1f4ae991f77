import { useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Code,
  Group,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { RequestError } from '@rhizome/client';
import { edgeEndpoints, nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import { humanise } from '../../lib/format.ts';
import { announceGraphChanged } from '../../lib/graph-changes.ts';
import { templateLabel } from '../../lib/graph-labels.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useEndpoint, useEndpointIfFound } from '../../lib/data/use-endpoint.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { toDraft, type Draft, type PropertyDefinition } from '../../components/PropertyField.tsx';
import { PropertyFields, propertiesOf } from '../entities/PropertyFields.tsx';
import type { Relationship } from './use-relationship-page.ts';

/** A relationship's page: its two ends, its label and properties (edited by its template's types), and delete. */
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
      <RelationshipForm key={detail.updated_at} edge={detail} definitions={template.data?.properties ?? []} />
      <details>
        <summary>Raw JSON</summary>
        <Code block aria-label="The relationship as JSON" tabIndex={0} mt={4} style={{ whiteSpace: 'pre-wrap' }}>
          {JSON.stringify(detail, null, 2)}
        </Code>
      </details>
    </Stack>
  );
}

function RelationshipForm({ edge, definitions }: { edge: Relationship; definitions: PropertyDefinition[] }) {
  const [label, setLabel] = useState(edge.label);
  const [drafts, setDrafts] = useState<Record<string, Draft>>(() =>
    Object.fromEntries(
      definitions.map((definition) => [definition.name, toDraft(definition, edge.properties[definition.name])]),
    ),
  );
  const [deleting, setDeleting] = useState(false);
  const update = useAction(edgeEndpoints.update);
  const remove = useAction(edgeEndpoints.remove);
  const navigate = useNavigate();
  const { busy, failure, run } = useSubmit();
  const defined = new Set(definitions.map((definition) => definition.name));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      // Properties outside the template (the extraction's confidence, say) are kept as they are.
      const others = Object.fromEntries(Object.entries(edge.properties).filter(([key]) => !defined.has(key)));
      await update.run({
        params: { edge_id: edge.id },
        body: { label: label.trim(), properties: { ...others, ...propertiesOf(definitions, drafts) } },
      });
      announceGraphChanged();
      notifications.show({ color: 'teal', message: 'Relationship saved.' });
    });
  };
  const removeIt = () =>
    void run(async () => {
      await remove.run({ params: { edge_id: edge.id } });
      announceGraphChanged();
      notifications.show({ color: 'teal', message: 'Relationship deleted.' });
      navigate('/relationships', { replace: true });
    });
  return (
    <form onSubmit={submit}>
      <Stack gap="sm" maw={640}>
        <TextInput
          label="Relationship"
          value={label}
          onChange={(event) => setLabel(event.currentTarget.value)}
          required
          error={failure instanceof RequestError ? failure.issueFor('label') : undefined}
        />
        <PropertyFields
          definitions={definitions}
          drafts={drafts}
          failure={failure}
          onChange={(name, value) => setDrafts((current) => ({ ...current, [name]: value }))}
        />
        {failure && (typeof failure === 'string' || failure.issues.length === 0) && (
          <Alert color="red">{typeof failure === 'string' ? failure : failure.message}</Alert>
        )}
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
        onDelete={removeIt}
      >
        The entities at its two ends stay.
      </ConfirmDelete>
    </form>
  );
}
