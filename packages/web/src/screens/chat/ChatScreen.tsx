import { useState } from 'react';
import {
  Box,
  Button,
  Grid,
  NavLink,
  Paper,
  ScrollArea,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconMessagePlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { chatEndpoints } from '@rhizome/contracts/api/chats';
import { messageOf } from '../../lib/api.ts';
import { countOf, formatDate } from '../../lib/format.ts';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Conversation, newChatTitle } from './Conversation.tsx';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

type Scoped = 'all' | 'scoped' | 'unscoped';

/** Conversations on the left (searchable, by scope), the open one on the right; one pane at a time on a phone. */
export default function ChatScreen() {
  const { chatId } = useParams();
  const navigate = useNavigate();
  const narrow = useMediaQuery('(max-width: 48em)');
  const [query, setQuery] = useState('');
  const [q] = useDebouncedValue(query, 250);
  const [scoped, setScoped] = useState<Scoped>('all');
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const chats = useEndpoint(chatEndpoints.list, {
    query: { page_size: 200, q: q || undefined, scoped: scoped === 'all' ? undefined : scoped === 'scoped' },
  });

  const createChat = useAction(chatEndpoints.create);
  const deleteAll = useAction(chatEndpoints.deleteAll, {
    refreshes: [{ tag: chatEndpoints.list.tag, endpoint: chatEndpoints.list }],
  });
  const [confirmingAll, setConfirmingAll] = useState(false);
  const removeAll = async () => {
    try {
      navigate('/chat');
      await deleteAll.run();
      setConfirmingAll(false);
    } catch (error) {
      setCreateError(messageOf(error));
      setConfirmingAll(false);
    }
  };
  const create = async () => {
    setCreating(true);
    setCreateError(null);
    try {
      const chat = await createChat.run({ body: { title: newChatTitle } });
      navigate(`/chat/${chat.id}`);
    } catch (error) {
      setCreateError(messageOf(error));
    } finally {
      setCreating(false);
    }
  };
  const list = (
    <Stack gap="xs" h="100%">
      <Button leftSection={<IconMessagePlus size={18} />} onClick={() => void create()} loading={creating}>
        New chat
      </Button>
      {createError && (
        <Text c="red" fz="sm" role="alert">
          {createError}
        </Text>
      )}
      <TextInput
        aria-label="Search chats"
        placeholder="Search titles"
        leftSection={<IconSearch size={16} />}
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
      />
      <SegmentedControl
        size="xs"
        value={scoped}
        onChange={(value) => setScoped(value as Scoped)}
        data={[
          { value: 'all', label: 'All' },
          { value: 'scoped', label: 'Scoped' },
          { value: 'unscoped', label: 'Unscoped' },
        ]}
        aria-label="Chats by scope"
      />
      {chats.error && (
        <ErrorNotice title="Could not load the chats" message={chats.error} onRetry={() => void chats.reload()} />
      )}
      {!chats.data && !chats.error && <Skeleton h={200} />}
      {chats.data?.data.length === 0 && (
        <Text c="dimmed" fz="sm" ta="center" mt="md">
          {q || scoped !== 'all' ? 'No chat matches.' : 'No chats yet: start one with “New chat”.'}
        </Text>
      )}
      <ScrollArea flex={1} type="auto">
        <nav aria-label="Chats">
          {chats.data?.data.map((chat) => (
            <NavLink
              key={chat.id}
              component={Link}
              to={`/chat/${chat.id}`}
              active={chat.id === chatId}
              label={chat.title}
              description={`${countOf(chat.message_count, 'message')} · ${formatDate(chat.updated_at)}`}
              aria-current={chat.id === chatId ? 'page' : undefined}
            />
          ))}
        </nav>
      </ScrollArea>
      {!!chats.data?.data.length && (
        <Button
          variant="subtle"
          color="red"
          size="xs"
          leftSection={<IconTrash size={14} />}
          onClick={() => setConfirmingAll(true)}
        >
          Delete all chats
        </Button>
      )}
      <ConfirmDelete
        opened={confirmingAll}
        title="Delete every chat?"
        onKeep={() => setConfirmingAll(false)}
        onDelete={() => void removeAll()}
        deleteLabel="Delete all"
        busy={deleteAll.pending}
      >
        Every chat of this database and all their messages are deleted for good. Your sources and graph stay.
      </ConfirmDelete>
    </Stack>
  );

  const conversation = chatId ? (
    <Conversation key={chatId} chatId={chatId} />
  ) : (
    <Stack align="center" justify="center" h="100%" gap="xs">
      <Text fw={600}>Chat with your sources</Text>
      <Text c="dimmed" fz="sm" ta="center">
        Open a conversation on the left or start a new one.
      </Text>
    </Stack>
  );

  const height = 'calc(100dvh - 60px - 2 * var(--mantine-spacing-md))';
  if (narrow) {
    return (
      <Box h={height}>
        {chatId ? (
          <Stack h="100%" gap={6}>
            <Button component={Link} to="/chat" variant="subtle" size="xs" w="fit-content">
              ← All chats
            </Button>
            <Box flex={1} style={{ minHeight: 0 }}>
              {conversation}
            </Box>
          </Stack>
        ) : (
          list
        )}
      </Box>
    );
  }
  return (
    <Grid h={height} gap="md" styles={{ inner: { height: '100%' } }}>
      <Grid.Col span={{ base: 12, md: 4, lg: 3 }} h="100%">
        {list}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8, lg: 9 }} h="100%">
        <Paper withBorder radius="md" p="md" h="100%">
          {conversation}
        </Paper>
      </Grid.Col>
    </Grid>
  );
}
