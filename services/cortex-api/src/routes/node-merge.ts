import { nodeMergeEndpoints as api } from '@rhizome/contracts/api/node-merge';
import { graphModule } from '@rhizome/core/graph';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** POST /nodes/{node_id}/merge: the kept node answers with what moved; it is embedded again when its text changed. */
export function mountNodeMergeRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.merge, async ({ params, body, scope }) => {
    const graph = await scope.service(graphModule);
    const { needsEmbedding, ...outcome } = await graph.mergeNodes(params.node_id, body.node_ids);
    if (needsEmbedding) await platform.automation.reembedNode(graph.database, params.node_id);
    return outcome;
  });
}
