import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Anchor, Badge, Button, Code, Group, Skeleton, Stack, Table, TagsInput, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router-dom';
import { RequestError } from '@rhizome/client';
import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import type { ResponseOf } from '@rhizome/contracts/endpoint';
import { countOf, humanise } from '../lib/format.ts';
import { templateLabel } from '../lib/graph-labels.ts';
import { announceGraphChanged } from '../lib/graph-changes.ts';
import type { Loaded } from '../lib/data/use-endpoint.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { NodeActions } from './NodeActions.tsx';
import { fromDraft, PropertyField, toDraft, type Draft, type PropertyDefinition } from './PropertyField.tsx';
import { useEndpoint, useEndpointIfFound } from '../lib/data/use-endpoint.ts';
import { useAction } from '../lib/data/use-action.ts';

type Connection = ResponseOf<typeof nodeEndpoints.connections>['data'][number];
type Citation = ResponseOf<typeof nodeEndpoints.citations>['data'][number];

/**
 * An entity's page: name, type, properties (edited by its template), aliases, relationships, citations, the
 * sources behind it, and its actions. Its parts load at once and each shows as soon as its answer is in: the
 * entity itself first (the panel is usable then), its template, relationships and citations after.
 */
export function NodeDetails({
  nodeId,
  onOpenNode,
  onOpenPassage,
  onGone,
  onLabel,
}: {
  nodeId: string;
  onOpenNode: (id: string) => void;
  onOpenPassage: (sourceId: string, chunkId: string, sentence: string | null) => void;
  onGone: () => void;
  /** Told the entity's name when it loads and after each change (a rename). */
  onLabel?: (label: string) => void;
}) {
  const params = { node_id: nodeId };
  const node = useEndpoint(nodeEndpoints.get, { params });
  const connections = useEndpoint(nodeEndpoints.connections, {
    params,
    query: { page_size: 200, sort_by: 'relationship' },
  });
  const citations = useEndpoint(nodeEndpoints.citations, { params, query: { page_size: 100 } });
  const detail = node.data;
  const templateId = detail?.template_id;
  const template = useEndpointIfFound(
    templateEndpoints.get,
    templateId ? { params: { template_id: templateId } } : null,
  );
  const label = detail?.label;
  useEffect(() => {
    if (label !== undefined) onLabel?.(label);
  }, [label]);

  if (node.error)
    return <ErrorNotice title="Could not open the entity" message={node.error} onRetry={() => void node.reload()} />;
  if (!detail) return <Skeleton h={240} />;
  // Without its template (gone, or unreadable) an entity's properties are edited as they are.
  const definitions = template.error
    ? []
    : template.data === undefined || template.loading
      ? undefined
      : (template.data?.properties ?? []);
  const changed = () => {
    void node.reload();
    void connections.reload();
    void citations.reload();
  };
  const linked = connections.data;
  const cited = citations.data;
  return (
    <Stack gap="lg" data-testid="node-details">
      <Stack gap={6}>
        <Group gap="xs" justify="space-between" align="flex-start">
          <Group gap="xs">
            <Badge variant="light" tt="none">
              {template.data ? templateLabel(template.data.name) : detail.template_id}
            </Badge>
            <Text fz="xs" c="dimmed">
              {linked ? countOf(linked.pagination.total, 'relationship') : 'Relationships…'} ·{' '}
              {cited ? countOf(cited.pagination.total, 'citation') : 'citations…'}
            </Text>
          </Group>
          <Anchor
            component={Link}
            to={`/graph?node=${encodeURIComponent(detail.id)}&highlight=${encodeURIComponent(detail.id)}`}
            fz="sm"
          >
            Show in the graph
          </Anchor>
        </Group>
        <NodeActions node={detail} onChanged={changed} onReplaced={onOpenNode} onDeleted={onGone} />
      </Stack>
      {definitions ? (
        <PropertiesForm
          key={detail.updated_at}
          nodeId={detail.id}
          properties={detail.properties}
          definitions={definitions}
          onSaved={changed}
        />
      ) : (
        <Skeleton h={120} />
      )}
      <Part loaded={connections} what="relationships">
        {(data) => <Relationships connections={data.data} total={data.pagination.total} onOpenNode={onOpenNode} />}
      </Part>
      <Part loaded={citations} what="citations">
        {(data) => (
          <>
            <Citations citations={data.data} total={data.pagination.total} onOpenPassage={onOpenPassage} />
            <Provenance citations={data.data} />
          </>
        )}
      </Part>
    </Stack>
  );
}

/** One part of the page loaded on its own: a placeholder until its answer, its own error and retry if it fails. */
function Part<T>({ loaded, what, children }: { loaded: Loaded<T>; what: string; children: (data: T) => ReactNode }) {
  if (loaded.error)
    return (
      <ErrorNotice title={`Could not load the ${what}`} message={loaded.error} onRetry={() => void loaded.reload()} />
    );
  if (loaded.data === undefined) return <Skeleton h={80} />;
  return <div>{children(loaded.data)}</div>;
}

/** A value with nothing to show: null, blank text, an empty list or object. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** Properties the interface shows but does not offer to edit: bookkeeping of the extraction. */
const bookkeeping = new Set(['aliases', 'confidence', 'extraction_domain', 'type_normalized_from']);

function PropertiesForm({
  nodeId,
  properties,
  definitions,
  onSaved,
}: {
  nodeId: string;
  properties: Record<string, unknown>;
  definitions: PropertyDefinition[];
  onSaved: () => void;
}) {
  const update = useAction(nodeEndpoints.update);
  const defined = useMemo(() => new Set(definitions.map((definition) => definition.name)), [definitions]);
  const initial = () =>
    Object.fromEntries(
      definitions.map((definition) => [definition.name, toDraft(definition, properties[definition.name])]),
    );
  const [drafts, setDrafts] = useState<Record<string, Draft>>(initial);
  const [aliases, setAliases] = useState<string[]>(() =>
    Array.isArray(properties.aliases) ? properties.aliases.map(String) : [],
  );
  const { busy, failure, run } = useSubmit();
  useEffect(() => setDrafts(initial), [definitions]);
  const outsideTemplate = Object.entries(properties).filter(
    ([key, value]) => !defined.has(key) && key !== 'aliases' && value !== null && value !== '',
  );
  const others = outsideTemplate.filter(([, value]) => !isEmpty(value));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const next: Record<string, unknown> = Object.fromEntries(outsideTemplate);
      for (const definition of definitions) {
        const value = fromDraft(definition, drafts[definition.name]);
        if (value !== null) next[definition.name] = value;
      }
      if (aliases.length) next.aliases = aliases;
      await update.run({ params: { node_id: nodeId }, body: { properties: next } });
      notifications.show({ color: 'teal', message: 'Properties saved.' });
      announceGraphChanged();
      onSaved();
    });
  };
  const fieldError = (name: string) => (failure instanceof RequestError ? failure.issueFor(name) : undefined);
  const unplaced =
    failure instanceof RequestError ? failure.issues.filter((issue) => !defined.has(String(issue.loc.at(-1)))) : [];

  return (
    <form onSubmit={submit} aria-labelledby="node-properties-title">
      <Stack gap="sm">
        <Title order={3} fz="md" id="node-properties-title">
          Properties
        </Title>
        {definitions.map((definition) => (
          <PropertyField
            key={definition.name}
            definition={definition}
            value={drafts[definition.name]}
            error={fieldError(definition.name)}
            onChange={(value) => setDrafts((current) => ({ ...current, [definition.name]: value }))}
          />
        ))}
        <TagsInput
          label="Aliases"
          description="Other names of this entity; press Enter after each"
          value={aliases}
          onChange={setAliases}
        />
        {others.length > 0 && (
          <div>
            <Title order={4} fz="sm" id="node-other-properties-title">
              Other properties
            </Title>
            <Text fz="xs" c="dimmed" mb={4}>
              Found by the extraction but not part of the type: shown here, kept when you save.
            </Text>
            <Table withRowBorders={false} verticalSpacing={2} fz="sm" aria-labelledby="node-other-properties-title">
              <Table.Tbody>
                {others.map(([key, value]) => (
                  <Table.Tr key={key}>
                    <Table.Th w={130} fw={bookkeeping.has(key) ? 400 : 600} title={key}>
                      {humanise(key)}
                    </Table.Th>
                    <Table.Td>
                      {typeof value === 'object' ? <Code>{JSON.stringify(value)}</Code> : String(value)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        )}
        {failure && (typeof failure === 'string' || unplaced.length > 0 || failure.issues.length === 0) && (
          <Text c="red" fz="sm" role="alert">
            {typeof failure === 'string' ? failure : [failure.message, ...unplaced.map((issue) => issue.msg)].join(' ')}
          </Text>
        )}
        <Group justify="flex-end">
          <Button type="submit" size="xs" loading={busy}>
            Save properties
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Relationships({
  connections,
  total,
  onOpenNode,
}: {
  connections: Connection[];
  total: number;
  onOpenNode: (id: string) => void;
}) {
  const groups = useMemo(() => {
    const byKey = new Map<string, Connection[]>();
    for (const connection of connections) {
      const key = `${connection.direction}\u0000${connection.relationship}`;
      byKey.set(key, [...(byKey.get(key) ?? []), connection]);
    }
    return [...byKey.entries()].sort(([a], [b]) => b.localeCompare(a));
  }, [connections]);
  return (
    <div data-testid="node-relationships">
      <Title order={3} fz="md" mb={4}>
        Relationships
      </Title>
      {connections.length === 0 && (
        <Text fz="sm" c="dimmed">
          No relationships.
        </Text>
      )}
      <Stack gap={8}>
        {groups.map(([key, items]) => (
          <div key={key}>
            <Text fz="xs" fw={600} c="dimmed" title={items[0].relationship}>
              {items[0].direction === 'outgoing'
                ? `${humanise(items[0].relationship)} →`
                : `← ${humanise(items[0].relationship)}`}{' '}
              ({items.length.toLocaleString()})
            </Text>
            <Group gap={6} mt={2}>
              {items.map((item, index) => (
                <Button
                  key={`${item.id}-${index}`}
                  size="compact-sm"
                  variant="light"
                  radius="xl"
                  onClick={() => onOpenNode(item.id)}
                >
                  {item.label}
                </Button>
              ))}
            </Group>
          </div>
        ))}
      </Stack>
      {total > connections.length && (
        <Text fz="xs" c="dimmed" mt={4}>
          The first {connections.length} of {total}; the graph shows the rest.
        </Text>
      )}
    </div>
  );
}

function Citations({
  citations,
  total,
  onOpenPassage,
}: {
  citations: Citation[];
  total: number;
  onOpenPassage: (sourceId: string, chunkId: string, sentence: string | null) => void;
}) {
  return (
    <div>
      <Title order={3} fz="md" mb={4}>
        Cited in
      </Title>
      {citations.length === 0 && (
        <Text fz="sm" c="dimmed">
          No passage cites this entity.
        </Text>
      )}
      <Stack gap={6}>
        {citations.map(
          ({ id, source, chunk, context_snippet: snippet }) =>
            chunk && (
              <Anchor
                key={id}
                component="button"
                type="button"
                ta="left"
                fz="sm"
                onClick={() => onOpenPassage(source.id, chunk.id, snippet)}
                data-testid="node-citation"
              >
                <b>{source.title}</b>
                {chunk.page_number !== null && `, page ${chunk.page_number}`}: {snippet ?? chunk.content.slice(0, 140)}
              </Anchor>
            ),
        )}
      </Stack>
      {total > citations.length && (
        <Text fz="xs" c="dimmed" mt={4}>
          The first {citations.length.toLocaleString()} of {countOf(total, 'citation')}.
        </Text>
      )}
    </div>
  );
}

/** The sources that contributed the entity, with how many of its citations each gave. */
function Provenance({ citations }: { citations: Citation[] }) {
  const sources = useMemo(() => {
    const counts = new Map<string, { title: string; type: string; count: number }>();
    for (const { source } of citations) {
      const current = counts.get(source.id) ?? { title: source.title, type: source.source_type, count: 0 };
      counts.set(source.id, { ...current, count: current.count + 1 });
    }
    return [...counts.entries()].sort((a, b) => b[1].count - a[1].count);
  }, [citations]);
  if (sources.length === 0) return null;
  return (
    <div>
      <Title order={3} fz="md" mb={4}>
        Sources
      </Title>
      <Stack gap={2}>
        {sources.map(([id, source]) => (
          <Group key={id} gap={6} wrap="nowrap">
            <Anchor component={Link} to={`/sources/${id}`} fz="sm" truncate>
              {source.title}
            </Anchor>
            <Text fz="xs" c="dimmed" span>
              {humanise(source.type)} · {countOf(source.count, 'citation')}
            </Text>
          </Group>
        ))}
      </Stack>
    </div>
  );
}
