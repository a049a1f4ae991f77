import { useState } from 'react';
import { TagsInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { sourceEndpoints, type SourceResponseBody } from '@rhizome/contracts/api/sources';
import { api, messageOf } from '../../lib/api.ts';
import { useLoad } from '../../lib/use-load.ts';

type Tag = SourceResponseBody['tags'][number];

/** The source's tags: type to add (a new name creates the tag), remove with the ×. */
export function SourceTags({ source, onChanged }: { source: SourceResponseBody; onChanged: (tags: Tag[]) => void }) {
  const all = useLoad(() => api.call(sourceEndpoints.listTags), []);
  const [busy, setBusy] = useState(false);

  async function change(names: string[]) {
    setBusy(true);
    try {
      const params = (tagId: string) => ({ source_id: source.id, tag_id: tagId });
      let tags = source.tags;
      for (const tag of source.tags.filter((known) => !names.includes(known.name)))
        tags = (await api.call(sourceEndpoints.removeTag, { params: params(tag.id) })).tags;
      for (const name of names.filter((wanted) => !source.tags.some((known) => known.name === wanted))) {
        const existing =
          all.data?.tags.find((tag) => tag.name === name) ??
          (await api.call(sourceEndpoints.createTag, { body: { name } }));
        tags = (await api.call(sourceEndpoints.addTag, { params: params(existing.id) })).tags;
      }
      onChanged(tags);
      void all.reload();
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not change the tags', message: messageOf(error) });
    } finally {
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
      data={(all.data?.tags ?? []).map((tag) => tag.name)}
      disabled={busy}
      clearable={false}
      maxLength={64}
    />
  );
}
