import { Anchor, Breadcrumbs, Code, Stack, Tabs } from '@mantine/core';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useInspector } from '../../components/Inspector.tsx';
import { NodeDetails } from '../../components/NodeDetails.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EntityConnections } from './EntityConnections.tsx';
import { EntitySources } from './EntitySources.tsx';
import { EntityTags } from './EntityTags.tsx';

const tabs = ['details', 'connections', 'sources', 'json'] as const;
const tabLabels: Record<(typeof tabs)[number], string> = {
  details: 'Details',
  connections: 'Connections',
  sources: 'Sources',
  json: 'JSON',
};

/** An entity's own page: what the graph's side panel shows, with its connections, sources and JSON on tabs. */
export default function EntityDetail() {
  const { nodeId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((candidate) => candidate === params.get('tab')) ?? 'details';
  const navigate = useNavigate();
  const { openPassage } = useInspector();
  // The same read as the details tab's, so the title follows a rename.
  const node = useEndpoint(nodeEndpoints.get, { params: { node_id: nodeId } });
  const label = node.data?.label ?? null;
  const openNode = (id: string) => navigate(`/entities/${encodeURIComponent(id)}`);
  return (
    <Stack gap="md">
      <Breadcrumbs>
        <Anchor component={Link} to="/entities" fz="sm">
          Entities
        </Anchor>
        <span>{label ?? 'Entity'}</span>
      </Breadcrumbs>
      <PageHeader title={label ?? 'Entity'} />
      {node.data && <EntityTags nodeId={nodeId} tags={node.data.tags ?? []} />}
      <Tabs
        value={tab}
        onChange={(value) => setParams(value && value !== 'details' ? { tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {tabs.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {tabLabels[value]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="details">
          <NodeDetails
            key={nodeId}
            nodeId={nodeId}
            onOpenNode={openNode}
            onOpenPassage={(sourceId, chunkId, sentence) => openPassage(sourceId, chunkId, sentence ? [sentence] : [])}
            onGone={() => navigate('/entities', { replace: true })}
          />
        </Tabs.Panel>
        <Tabs.Panel value="connections">
          <EntityConnections nodeId={nodeId} />
        </Tabs.Panel>
        <Tabs.Panel value="sources">
          <EntitySources nodeId={nodeId} />
        </Tabs.Panel>
        <Tabs.Panel value="json">
          {node.data && (
            <Code
              block
              aria-label="The entity as JSON"
              tabIndex={0}
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            >
              {JSON.stringify(node.data, null, 2)}
            </Code>
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
