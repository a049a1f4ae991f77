import { edgeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { CitedSources } from '../entities/CitedSources.tsx';

/** The sentences of the sources that state a relationship, each opening its passage (the first 100). */
export function RelationshipEvidence({ edgeId }: { edgeId: string }) {
  const citations = useEndpoint(edgeEndpoints.citations, { params: { edge_id: edgeId }, query: { page_size: 100 } });
  return (
    <CitedSources
      citations={citations}
      none="No source states this relationship: it was made by hand or its sources were removed."
      headingOrder={3}
    />
  );
}
