import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { CitedSources } from './CitedSources.tsx';

/** The sources that name an entity, each with the passages that cite it (the first 100 citations). */
export function EntitySources({ nodeId }: { nodeId: string }) {
  const citations = useEndpoint(nodeEndpoints.citations, { params: { node_id: nodeId }, query: { page_size: 100 } });
  return (
    <CitedSources
      citations={citations}
      none="No source cites this entity: it was made by hand or its sources were removed."
    />
  );
}
