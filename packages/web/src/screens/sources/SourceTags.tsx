import { useState } from 'react';
import { TagsInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import { api, messageOf } from '../../lib/api.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useRefresh } from '../../lib/data/use-action.ts';

/**
 * The source's tags: type to add (a new name creates the tag), remove with the ×. One change can take
 * several calls, so the source and the tag list refresh once at the end.
 */
export function SourceTags({ source }: { source: SourceResponseBody }) {
  const all = useEndpoint(sourceEndpoints.listTags);
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);

  async function change(names: string[]) {
    setBusy(true);
    try {
      const params = (tagId: string) => ({ source_id: source.id, tag_id: tagId });
      for (const tag of source.tags.filter((known) => !names.includes(known.name)))
        await api.call(sourceEndpoints.removeTag, { params: params(tag.id) });
      for (const name of names.filter((wanted) => !source.tags.some((known) => known.name === wanted))) {
        // Creating a name that exists, in any case, answers the existing tag.
        const tag = await api.call(sourceEndpoints.createTag, { body: { name } });
        await api.call(sourceEndpoints.addTag, { params: params(tag.id) });
      }
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not change the tags', message: messageOf(error) });
    } finally {
      await refresh([{ tag: sourceEndpoints.listTags.tag }]);
      setBusy(false);
    }
  }

  return (
    <TagsInput
      mt="sm"
      label="Tags"
      placeholder="Add a tag and press Enter"
      value={source.tags.map((tag) => tag.name)}
      onChange={(names) => void change(names)}
      data={(all.data ?? []).map((tag) => tag.name)}
      disabled={busy}
      clearable={false}
      maxLength={64}
    />
  );
}
