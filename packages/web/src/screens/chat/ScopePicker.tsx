import { useState } from 'react';
import { Button, Group, MultiSelect, Popover, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFilter } from '@tabler/icons-react';
import { chatEndpoints, type ChatBody } from '@rhizome/contracts/api/chats';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

/** Which sources a chat searches: all enabled ones, or the chosen sources and tagged sources. */
export function ScopePicker({ chat }: { chat: ChatBody }) {
  const [opened, setOpened] = useState(false);
  const [sourceIds, setSourceIds] = useState<string[]>(chat.source_ids ?? []);
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const sources = useEndpoint(sourceEndpoints.list, opened ? { query: { page_size: 1000 } } : null);
  const tags = useEndpoint(sourceEndpoints.listTags, opened ? {} : null);
  const clearScope = useAction(chatEndpoints.clearScope);
  const setScope = useAction(chatEndpoints.setScope);

  const apply = async (clear: boolean) => {
    setBusy(true);
    try {
      const params = { chat_id: chat.id };
      const updated =
        clear || (!sourceIds.length && !tagIds.length)
          ? await clearScope.run({ params })
          : await setScope.run({ params, body: { source_ids: sourceIds, tag_ids: tagIds } });
      setSourceIds(updated.source_ids ?? []);
      setTagIds([]);
      setOpened(false);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not change the scope', message: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };

  const label = chat.source_ids ? countOf(chat.source_ids.length, 'source') : 'All sources';
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={320} withinPortal trapFocus>
      <Popover.Target>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconFilter size={14} />}
          onClick={() => setOpened((open) => !open)}
          aria-label={`Scope: ${label}`}
        >
          {label}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <Text fz="sm">Answer from these sources only:</Text>
          <MultiSelect
            label="Sources"
            searchable
            clearable
            data={(sources.data?.data ?? []).map((source) => ({
              value: source.id,
              label: source.title ?? source.filename ?? source.id,
            }))}
            value={sourceIds}
            onChange={setSourceIds}
            comboboxProps={{ withinPortal: false }}
          />
          <MultiSelect
            label="Sources with the tags"
            clearable
            data={(tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name }))}
            value={tagIds}
            onChange={setTagIds}
            comboboxProps={{ withinPortal: false }}
          />
          <Group justify="space-between">
            <Button variant="subtle" size="xs" onClick={() => void apply(true)} disabled={busy || !chat.source_ids}>
              Search everything
            </Button>
            <Button size="xs" onClick={() => void apply(false)} loading={busy}>
              Apply
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
