import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import { TagEditor } from '../../components/TagEditor.tsx';
import { useAction } from '../../lib/data/use-action.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

/** The source's tags: type to add (a new name creates the tag), remove with the × or Backspace. */
export function SourceTags({ source }: { source: SourceResponseBody }) {
  const known = useEndpoint(sourceEndpoints.listTags);
  // The source and the tag list load again once the tag is on, not between the two calls.
  const create = useAction(sourceEndpoints.createTag, { refreshes: [] });
  const add = useAction(sourceEndpoints.addTag);
  const removeTag = useAction(sourceEndpoints.removeTag);
  const params = (tagId: string) => ({ source_id: source.id, tag_id: tagId });
  return (
    <TagEditor
      mt="sm"
      label="Source tags"
      fieldLabel="Tags"
      tags={source.tags}
      known={known.data ?? []}
      add={async (name) => {
        // Creating a name that exists, in any case, answers the existing tag.
        const tag = await create.run({ body: { name } });
        await add.run({ params: params(tag.id) });
      }}
      remove={(tag) => removeTag.run({ params: params(tag.id) })}
    />
  );
}
