import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Loader,
  Menu,
  Paper,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { getHotkeyHandler } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconArrowBackUp,
  IconDownload,
  IconPencil,
  IconPlayerStop,
  IconRefresh,
  IconSend,
  IconSparkles,
} from '@tabler/icons-react';
import { chatEndpoints } from '@rhizome/contracts/api/chats';
import { api, messageOf } from '../../lib/api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { JsonBlock } from '../../components/JsonBlock.tsx';
import { MessageContent } from './MessageContent.tsx';
import { ScopePicker } from './ScopePicker.tsx';
import { citationsOf, type ChatStreamEvent } from './stream-events.ts';
import { chatToolTitle, describeToolCall } from './tool-calls.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction, useRefresh } from '../../lib/data/use-action.ts';

export const newChatTitle = 'New chat';

interface Approval {
  toolCallId: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** The answer being written: streamed text, the tools it runs, and an approval it waits for. */
interface Turn {
  content: string;
  tools: string[];
  approval: Approval | null;
}

/** One conversation: its messages, the streamed answer, and every control of a turn. */
export function Conversation({ chatId }: { chatId: string }) {
  const chat = useEndpoint(chatEndpoints.get, { params: { chat_id: chatId } });
  const refreshList = useRefresh();
  const nameChat = useAction(chatEndpoints.generateTitle);
  const renameChat = useAction(chatEndpoints.rename);
  // The stream follows the turn and the chat reloads when it ends.
  const sendMessage = useAction(chatEndpoints.send, { refreshes: [] });
  const cancel = useAction(chatEndpoints.cancel, { refreshes: [] });
  const answerTool = useAction(chatEndpoints.toolDecision, { refreshes: [] });
  const retry = useAction(chatEndpoints.retry, { refreshes: [] });
  const regenerate = useAction(chatEndpoints.regenerate, { refreshes: [] });
  /** The question just sent, shown until the stored chat has it: its text and how many messages came before. */
  const [asked, setAsked] = useState<{ content: string; after: number } | null>(null);
  const [turn, setTurn] = useState<Turn | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  const following = useRef<AbortController | null>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const params = { chat_id: chatId };

  const refresh = async () => {
    const fresh = await chat.reload();
    // A chat still called as it was created gets a title from its first question once it has an answer.
    if (fresh?.title === newChatTitle && fresh.messages.some((message) => message.role === 'assistant'))
      await nameChat.run({ params });
    else await refreshList([{ tag: chatEndpoints.list.tag, endpoint: chatEndpoints.list }]);
  };

  /** Follows the chat's events until its turn ends, then shows the stored answer. */
  const follow = () => {
    following.current?.abort();
    const abort = new AbortController();
    following.current = abort;
    setFailure(null);
    setTurn({ content: '', tools: [], approval: null });
    const onEvent = (event: ChatStreamEvent) => {
      if (event.type === 'content') setTurn((current) => current && { ...current, content: event.accumulated });
      else if (event.type === 'tool_start')
        setTurn((current) => current && { ...current, tools: [...current.tools, event.tool] });
      else if (event.type === 'tool_approval_required')
        setTurn(
          (current) =>
            current && {
              ...current,
              approval: { toolCallId: event.tool_call_id, tool: event.tool_name, arguments: event.arguments },
            },
        );
      else if (event.type === 'tool_rejected') setTurn((current) => current && { ...current, approval: null });
      else if (event.type === 'error') setFailure(event.error);
    };
    void api
      .stream<typeof chatEndpoints.events, ChatStreamEvent>(chatEndpoints.events, { params }, onEvent, abort.signal)
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setFailure(messageOf(error));
      })
      .finally(async () => {
        if (abort.signal.aborted) return;
        await refresh().catch(() => undefined);
        setTurn(null);
      });
  };

  useEffect(() => () => following.current?.abort(), []);
  // A turn already running when the chat is opened (another tab, a reload) is followed too.
  const status = chat.data?.status;
  useEffect(() => {
    if (status === 'processing' && !turn) follow();
  }, [status]);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [chat.data?.messages.length, turn?.content]);

  const start = async (what: string, request: () => Promise<unknown>) => {
    setFailure(null);
    try {
      await request();
      follow();
      return true;
    } catch (error) {
      setFailure(`${what}: ${messageOf(error)}`);
      return false;
    }
  };
  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const content = draft.trim();
    if (!content || turn) return;
    setAsked({ content, after: chat.data?.messages.length ?? 0 });
    setDraft('');
    if (!(await start('Could not send', () => sendMessage.run({ params, body: { content } })))) {
      setDraft(content);
      setAsked(null);
      await refresh().catch(() => undefined);
    }
  };
  const stop = async () => {
    try {
      await cancel.run({ params });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not stop the answer', message: messageOf(error) });
    }
  };
  const decide = async (decision: 'approve' | 'reject') => {
    const approval = turn?.approval;
    if (!approval) return;
    setTurn((current) => current && { ...current, approval: null });
    try {
      await answerTool.run({ params, body: { tool_call_id: approval.toolCallId, decision } });
    } catch (error) {
      setFailure(`Could not ${decision} the tool call: ${messageOf(error)}`);
    }
  };
  const rename = async () => {
    if (renaming === null) return;
    const title = renaming.trim();
    setRenaming(null);
    if (!title || title === chat.data?.title) return;
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
      link.download = filename ?? `${chat.data?.title ?? 'chat'}.${format === 'json' ? 'json' : 'md'}`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not export the chat', message: messageOf(error) });
    }
  };

  if (chat.error)
    return <ErrorNotice title="Could not open the chat" message={chat.error} onRetry={() => void chat.reload()} />;
  if (!chat.data) return <Skeleton h={400} />;
  const stored = chat.data.messages;
  const messages =
    asked && stored.length <= asked.after
      ? [
          ...stored,
          {
            id: 'pending',
            role: 'user',
            content: asked.content,
            timestamp: new Date().toISOString(),
            extra_metadata: null,
          },
        ]
      : stored;
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const endsWithUser = messages.at(-1)?.role === 'user';

  return (
    <Stack gap="sm" h="100%" style={{ minHeight: 0 }}>
      <Group justify="space-between" gap="xs">
        {renaming === null ? (
          <Group gap={4} wrap="nowrap" style={{ minWidth: 0, flex: '1 1 220px' }}>
            <Text fw={650} fz="lg" truncate data-testid="chat-title">
              {chat.data.title}
            </Text>
            <Tooltip label="Rename">
              <ActionIcon
                variant="subtle"
                color="gray"
                onClick={() => setRenaming(chat.data!.title)}
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
                disabled={!lastUser}
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
          <ScopePicker chat={chat.data} />
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
        </Group>
      </Group>
      <ScrollArea flex={1} type="auto" offsetScrollbars aria-live="polite" aria-label="Conversation">
        <Stack gap="sm" pb="sm">
          {messages.length === 0 && !turn && (
            <Text c="dimmed" ta="center" mt="xl">
              Ask a question about your sources. Answers cite the sentences they rely on; click a citation to read it in
              its passage.
            </Text>
          )}
          {messages.map((message) =>
            message.role === 'system' ? (
              <Text key={message.id} fz="xs" c="dimmed" ta="center">
                {message.content}
              </Text>
            ) : (
              <Paper
                key={message.id}
                p="sm"
                radius="md"
                withBorder={message.role === 'assistant'}
                bg={message.role === 'user' ? 'var(--mantine-primary-color-light)' : undefined}
                ml={message.role === 'user' ? { base: 24, sm: 80 } : 0}
                mr={message.role === 'assistant' ? { base: 0, sm: 40 } : 0}
                data-role={message.role}
              >
                {message.role === 'assistant' ? (
                  <MessageContent content={message.content} citations={citationsOf(message.extra_metadata)} />
                ) : (
                  <div className="answer">{message.content}</div>
                )}
              </Paper>
            ),
          )}
          {turn && (
            <Paper p="sm" radius="md" withBorder mr={{ base: 0, sm: 40 }} data-testid="streaming-answer">
              {turn.tools.length > 0 && (
                <Group gap={4} mb={6}>
                  {turn.tools.map((tool, index) => (
                    <Badge key={index} size="xs" variant="outline" color="gray" tt="none">
                      {chatToolTitle(tool)}
                    </Badge>
                  ))}
                </Group>
              )}
              {turn.content ? (
                <MessageContent content={turn.content} citations={{}} />
              ) : (
                <Group gap="xs">
                  <Loader size="xs" />
                  <Text fz="sm" c="dimmed">
                    {turn.approval ? 'Waiting for your approval…' : 'Thinking…'}
                  </Text>
                </Group>
              )}
              {turn.approval && (
                <Card withBorder mt="sm" p="sm" radius="md" data-testid="tool-approval">
                  <Text fz="xs" c="dimmed" fw={600} tt="uppercase">
                    {chatToolTitle(turn.approval.tool)}
                  </Text>
                  <Text fz="sm" fw={600} mt={4}>
                    {describeToolCall(turn.approval.tool, turn.approval.arguments)}
                  </Text>
                  <Box mt="xs">
                    <JsonBlock
                      value={turn.approval.arguments}
                      label={`What ${chatToolTitle(turn.approval.tool).toLowerCase()} is given`}
                      empty="No values"
                    />
                  </Box>
                  <Group gap="xs" mt="sm">
                    <Button size="xs" onClick={() => void decide('approve')}>
                      Allow
                    </Button>
                    <Button size="xs" variant="default" onClick={() => void decide('reject')}>
                      Deny
                    </Button>
                  </Group>
                </Card>
              )}
            </Paper>
          )}
          {failure && (
            <Alert color="red" role="alert" title="The answer failed">
              {failure}
              {endsWithUser && !turn && (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  mt="xs"
                  display="block"
                  leftSection={<IconRefresh size={14} />}
                  onClick={() => void start('Could not retry', () => retry.run({ params }))}
                >
                  Retry
                </Button>
              )}
            </Alert>
          )}
          <div ref={bottom} />
        </Stack>
      </ScrollArea>
      <Group gap="xs" justify="flex-end" mih={30}>
        {turn && (
          <Button
            size="xs"
            color="red"
            variant="light"
            leftSection={<IconPlayerStop size={14} />}
            onClick={() => void stop()}
          >
            Stop
          </Button>
        )}
        {!turn && endsWithUser && !failure && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            onClick={() => void start('Could not retry', () => retry.run({ params }))}
          >
            Retry
          </Button>
        )}
        {!turn && lastUser && !endsWithUser && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconArrowBackUp size={14} />}
            onClick={() => void start('Could not regenerate', () => regenerate.run({ params }))}
          >
            Regenerate
          </Button>
        )}
      </Group>
      <form onSubmit={(event) => void send(event)}>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Textarea
            flex={1}
            autosize
            minRows={1}
            maxRows={6}
            aria-label="Message"
            placeholder="Ask about your sources…  (Enter sends, Shift+Enter adds a line)"
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            onKeyDown={getHotkeyHandler([['Enter', () => void send()]])}
          />
          <ActionIcon type="submit" size={36} aria-label="Send" disabled={!draft.trim() || turn !== null}>
            <IconSend size={18} />
          </ActionIcon>
        </Group>
      </form>
    </Stack>
  );
}
