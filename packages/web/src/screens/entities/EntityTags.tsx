import { nodeTagEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { TagEditor, type TagRef } from '../../components/TagEditor.tsx';
import { useAction } from '../../lib/data/use-action.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

export { TagBadge, type TagRef } from '../../components/TagEditor.tsx';

/** The entity tags of one entity: each removable, and a field to add an existing tag or a new one. */
export function EntityTags({ nodeId, tags }: { nodeId: string; tags: TagRef[] }) {
  const known = useEndpoint(nodeTagEndpoints.list);
  // The node and the tag list load again once the tag is on, not between the two calls.
  const create = useAction(nodeTagEndpoints.create, { refreshes: [] });
  const assign = useAction(nodeTagEndpoints.assign);
  const unassign = useAction(nodeTagEndpoints.unassign);
  return (
    <TagEditor
      label="Entity tags"
      tags={tags}
      known={known.data ?? []}
      add={async (name) => {
        // Creating a name that exists, in any case, answers the existing tag.
        const tag = await create.run({ body: { name } });
        await assign.run({ params: { node_id: nodeId, tag_id: tag.id } });
      }}
      remove={(tag) => unassign.run({ params: { node_id: nodeId, tag_id: tag.id } })}
    />
  );
}
