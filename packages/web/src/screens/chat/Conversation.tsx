import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ActionIcon, Alert, Button, Group, ScrollArea, Skeleton, Stack, Text, Textarea } from '@mantine/core';
import { getHotkeyHandler } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconPlayerStop, IconRefresh, IconSend } from '@tabler/icons-react';
import { chatEndpoints, type MessageBody } from '@rhizome/contracts/api/chats';
import { api, messageOf } from '../../lib/api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ChatMessage } from './ChatMessage.tsx';
import { ChatStarters } from './ChatStarters.tsx';
import { ConversationHeader } from './ConversationHeader.tsx';
import { emptyTurn, StreamingAnswer, type Turn } from './StreamingAnswer.tsx';
import type { ChatStreamEvent } from './stream-events.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { useAction, useRefresh } from '../../lib/data/use-action.ts';

export const newChatTitle = 'New chat';

/** Applies one streamed event to the answer being written. */
function advance(turn: Turn | null, event: ChatStreamEvent): Turn | null {
  if (!turn) return turn;
  switch (event.type) {
    case 'content':
      return { ...turn, content: event.accumulated };
    case 'thinking_delta':
      return { ...turn, thinking: turn.thinking + event.thinking };
    case 'tool_start':
      return { ...turn, tools: [...turn.tools, event.tool] };
    case 'tool_approval_required':
      return {
        ...turn,
        approval: { toolCallId: event.tool_call_id, tool: event.tool_name, arguments: event.arguments },
      };
    case 'tool_rejected':
      return { ...turn, approval: null };
    default:
      return turn;
  }
}

/** One conversation: its messages, the streamed answer, and every control of a turn. */
export function Conversation({ chatId }: { chatId: string }) {
  const chat = useEndpoint(chatEndpoints.get, { params: { chat_id: chatId } });
  const refreshList = useRefresh();
  const nameChat = useAction(chatEndpoints.generateTitle);
  // The stream follows the turn and the chat reloads when it ends.
  const sendMessage = useAction(chatEndpoints.send, { refreshes: [] });
  const cancel = useAction(chatEndpoints.cancel, { refreshes: [] });
  const answerTool = useAction(chatEndpoints.toolDecision, { refreshes: [] });
  const retry = useAction(chatEndpoints.retry, { refreshes: [] });
  const regenerate = useAction(chatEndpoints.regenerate, { refreshes: [] });
  /** The question just sent, shown after the messages before it until the stored chat is read again. */
  const [asked, setAsked] = useState<{ content: string; after: number } | null>(null);
  const [turn, setTurn] = useState<Turn | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const following = useRef<AbortController | null>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const params = { chat_id: chatId };

  const refresh = async () => {
    const fresh = await chat.reload();
    setAsked(null);
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
    setTurn(emptyTurn);
    const onEvent = (event: ChatStreamEvent) => {
      if (event.type === 'error') setFailure(event.error);
      else setTurn((current) => advance(current, event));
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
  /** Sends a question after the messages before `at` (all of them, or an edited question's place). */
  const ask = async (content: string, at?: MessageBody) => {
    const stored = chat.data?.messages ?? [];
    setAsked({ content, after: at ? stored.indexOf(at) : stored.length });
    const body = at ? { content, replace_from_message_id: at.id } : { content };
    const sent = await start('Could not send', () => sendMessage.run({ params, body }));
    if (!sent) {
      setAsked(null);
      await chat.reload().catch(() => undefined);
    }
    return sent;
  };
  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const content = draft.trim();
    if (!content || turn) return;
    setDraft('');
    if (!(await ask(content))) setDraft(content);
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

  if (chat.error)
    return <ErrorNotice title="Could not open the chat" message={chat.error} onRetry={() => void chat.reload()} />;
  if (!chat.data) return <Skeleton h={400} />;
  const stored = chat.data.messages;
  const pending: MessageBody[] = asked
    ? [
        {
          id: 'pending',
          role: 'user',
          content: asked.content,
          timestamp: new Date().toISOString(),
          extra_metadata: null,
        },
      ]
    : [];
  const messages = asked ? [...stored.slice(0, asked.after), ...pending] : stored;
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const endsWithUser = messages.at(-1)?.role === 'user';

  return (
    <Stack gap="sm" h="100%" style={{ minHeight: 0 }}>
      <ConversationHeader chat={chat.data} hasQuestion={!!lastUser} />
      <ScrollArea flex={1} type="auto" offsetScrollbars aria-live="polite" aria-label="Conversation">
        <Stack gap="sm" pb="sm">
          {messages.length === 0 && !turn && <ChatStarters onAsk={(question) => void ask(question)} />}
          {messages.map((message) =>
            message.role === 'system' ? (
              <Text key={message.id} fz="xs" c="dimmed" ta="center">
                {message.content}
              </Text>
            ) : (
              <ChatMessage
                key={message.id}
                message={message}
                onResend={
                  message.role === 'user' && !turn && message.id !== 'pending'
                    ? (content) => ask(content, message)
                    : undefined
                }
              />
            ),
          )}
          {turn && <StreamingAnswer turn={turn} onDecide={(decision) => void decide(decision)} />}
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
