import { nodeMergeEndpoints as api } from '@rhizome/contracts/api/node-merge';
import { mergeNodes } from '@rhizome/core/graph';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

/** POST /nodes/{node_id}/merge: the kept node answers with what moved; it is embedded again when its text changed. */
export function mountNodeMergeRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.merge, async ({ params, body }) => {
    const { name, db } = await platform.databases.current();
    const { needsEmbedding, ...outcome } = await mergeNodes(
      { db, database: name, events: platform.graphEvents },
      params.node_id,
      body.node_ids,
    );
    if (needsEmbedding) await platform.automation.reembedNode(name, params.node_id);
    return outcome;
  });
}
