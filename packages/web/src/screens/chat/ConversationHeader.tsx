import { useState } from 'react';
import { ActionIcon, Button, Group, Menu, Text, TextInput, Tooltip } from '@mantine/core';
import { getHotkeyHandler } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPencil, IconSparkles, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { chatEndpoints, type ChatBody } from '@rhizome/contracts/api/chats';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { api, messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { ScopePicker } from './ScopePicker.tsx';

/** The open chat's title (rename, generate), scope, export and delete. */
export function ConversationHeader({ chat, hasQuestion }: { chat: ChatBody; hasQuestion: boolean }) {
  const navigate = useNavigate();
  const params = { chat_id: chat.id };
  const nameChat = useAction(chatEndpoints.generateTitle);
  const renameChat = useAction(chatEndpoints.rename);
  // Only the list: the deleted chat's own read must not load again.
  const deleteChat = useAction(chatEndpoints.delete, {
    refreshes: [{ tag: chatEndpoints.list.tag, endpoint: chatEndpoints.list }],
  });
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const rename = async () => {
    if (renaming === null) return;
    const title = renaming.trim();
    setRenaming(null);
    if (!title || title === chat.title) return;
    try {
      await renameChat.run({ params, body: { title } });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not rename the chat', message: messageOf(error) });
    }
  };
  const generateTitle = async () => {
    try {
      await nameChat.run({ params });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not generate a title', message: messageOf(error) });
    }
  };
  const exportAs = async (format: 'json' | 'markdown') => {
    try {
      const { blob, filename } = await api.download(chatEndpoints.export, { params, query: { format } });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = filename ?? `${chat.title}.${format === 'json' ? 'json' : 'md'}`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not export the chat', message: messageOf(error) });
    }
  };
  const remove = async () => {
    try {
      await deleteChat.run({ params });
      setConfirming(false);
      navigate('/chat');
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not delete the chat', message: messageOf(error) });
    }
  };

  return (
    <Group justify="space-between" gap="xs">
      {renaming === null ? (
        <Group gap={4} wrap="nowrap" style={{ minWidth: 0, flex: '1 1 220px' }}>
          <Text fw={650} fz="lg" truncate data-testid="chat-title">
            {chat.title}
          </Text>
          <Tooltip label="Rename">
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={() => setRenaming(chat.title)}
              aria-label="Rename the chat"
            >
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Title from the first question">
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={() => void generateTitle()}
              aria-label="Generate a title"
              disabled={!hasQuestion}
            >
              <IconSparkles size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ) : (
        <TextInput
          aria-label="Chat title"
          value={renaming}
          onChange={(event) => setRenaming(event.currentTarget.value)}
          onBlur={() => void rename()}
          onKeyDown={getHotkeyHandler([
            ['Enter', () => void rename()],
            ['Escape', () => setRenaming(null)],
          ])}
          autoFocus
          flex={1}
        />
      )}
      <Group gap="xs" wrap="nowrap">
        <ScopePicker chat={chat} />
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button variant="default" size="xs" leftSection={<IconDownload size={14} />}>
              Export
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => void exportAs('markdown')}>Markdown</Menu.Item>
            <Menu.Item onClick={() => void exportAs('json')}>JSON</Menu.Item>
          </Menu.Dropdown>
        </Menu>
        <Tooltip label="Delete this chat">
          <ActionIcon variant="subtle" color="red" onClick={() => setConfirming(true)} aria-label="Delete the chat">
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <ConfirmDelete
        opened={confirming}
        title="Delete this chat?"
        onKeep={() => setConfirming(false)}
        onDelete={() => void remove()}
        busy={deleteChat.pending}
      >
        {`“${chat.title}” and its ${countOf(chat.messages.length, 'message')} are deleted for good.`}
      </ConfirmDelete>
    </Group>
  );
}
