import { useState } from 'react';
import { ActionIcon, Autocomplete, Badge, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconX } from '@tabler/icons-react';
import { nodeTagEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { messageOf } from '../../lib/api.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

export interface TagRef {
  id: string;
  name: string;
  color: string | null;
}

/** A tag as a badge in its own colour (or the theme's), with an optional button taking it off. */
export function TagBadge({ tag, onRemove }: { tag: TagRef; onRemove?: () => void }) {
  return (
    <Badge
      variant="light"
      color={tag.color ?? 'grape'}
      tt="none"
      rightSection={
        onRemove && (
          <ActionIcon
            size={16}
            variant="transparent"
            color={tag.color ?? 'grape'}
            aria-label={`Remove the tag ${tag.name}`}
            onClick={onRemove}
          >
            <IconX size={12} />
          </ActionIcon>
        )
      }
    >
      {tag.name}
    </Badge>
  );
}

/** The entity tags of one entity: each removable, and a field to add an existing tag or a new one. */
export function EntityTags({ nodeId, tags }: { nodeId: string; tags: TagRef[] }) {
  const known = useEndpoint(nodeTagEndpoints.list);
  const create = useAction(nodeTagEndpoints.create);
  const assign = useAction(nodeTagEndpoints.assign);
  const unassign = useAction(nodeTagEndpoints.unassign);
  const [name, setName] = useState('');
  const run = async (what: string, action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      notifications.show({ color: 'red', title: `Could not ${what}`, message: messageOf(error) });
    }
  };
  const add = () =>
    run('add the tag', async () => {
      // Creating a name that exists, in any case, answers the existing tag.
      const tag = await create.run({ body: { name: name.trim() } });
      await assign.run({ params: { node_id: nodeId, tag_id: tag.id } });
      setName('');
    });
  const carried = new Set(tags.map((tag) => tag.id));
  return (
    <Group gap="xs" align="center" wrap="wrap" aria-label="Entity tags" role="group">
      <Text fz="sm" c="dimmed">
        Tags
      </Text>
      {tags.length === 0 && (
        <Text fz="sm" c="dimmed" fs="italic">
          none yet
        </Text>
      )}
      {tags.map((tag) => (
        <TagBadge
          key={tag.id}
          tag={tag}
          onRemove={() =>
            void run(`remove the tag ${tag.name}`, () => unassign.run({ params: { node_id: nodeId, tag_id: tag.id } }))
          }
        />
      ))}
      <Group gap={4} wrap="nowrap">
        <Autocomplete
          aria-label="Add a tag"
          placeholder="Add a tag"
          size="xs"
          w={160}
          data={(known.data ?? []).filter((tag) => !carried.has(tag.id)).map((tag) => tag.name)}
          value={name}
          onChange={setName}
          maxLength={64}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && name.trim()) void add();
          }}
        />
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPlus size={14} />}
          disabled={!name.trim()}
          loading={create.pending || assign.pending}
          onClick={() => void add()}
        >
          Add
        </Button>
      </Group>
    </Group>
  );
}
