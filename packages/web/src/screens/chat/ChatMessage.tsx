import { useState, type FormEvent } from 'react';
import { ActionIcon, Button, Group, Paper, Textarea, Tooltip } from '@mantine/core';
import { getHotkeyHandler } from '@mantine/hooks';
import { IconPencil } from '@tabler/icons-react';
import type { MessageBody } from '@rhizome/contracts/api/chats';
import { ContextPanel } from './ContextPanel.tsx';
import { MessageContent } from './MessageContent.tsx';
import { ThinkingFold } from './ThinkingFold.tsx';
import { citationsOf, sentContextOf, thinkingOf } from './stream-events.ts';

interface Props {
  message: MessageBody;
  /** Sends the edited question in place of this one (the turns after it are replaced); absent: not editable now. */
  onResend?: (content: string) => Promise<boolean>;
}

/** One stored message: a question (which can be edited and sent again) or an answer with its thinking and context. */
export function ChatMessage({ message, onResend }: Props) {
  const [editing, setEditing] = useState<string | null>(null);
  const user = message.role === 'user';
  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    const content = editing?.trim();
    if (!content || !onResend) return;
    if (await onResend(content)) setEditing(null);
  };
  const context = sentContextOf(message.extra_metadata);
  return (
    <Paper
      p="sm"
      radius="md"
      withBorder={!user}
      bg={user ? 'var(--mantine-primary-color-light)' : undefined}
      ml={user ? { base: 24, sm: 80 } : 0}
      mr={user ? 0 : { base: 0, sm: 40 }}
      data-role={message.role}
    >
      {!user ? (
        <>
          <ThinkingFold thinking={thinkingOf(message.extra_metadata)} />
          <MessageContent content={message.content} citations={citationsOf(message.extra_metadata)} />
          {context && <ContextPanel context={context} />}
        </>
      ) : editing !== null ? (
        <form onSubmit={(event) => void save(event)}>
          <Textarea
            aria-label="Edit the question"
            autosize
            minRows={1}
            maxRows={8}
            value={editing}
            onChange={(event) => setEditing(event.currentTarget.value)}
            onKeyDown={getHotkeyHandler([
              ['Enter', () => void save()],
              ['Escape', () => setEditing(null)],
            ])}
            autoFocus
          />
          <Group gap="xs" justify="flex-end" mt="xs">
            <Button size="xs" variant="default" onClick={() => setEditing(null)}>
              Cancel
            </Button>
            <Button size="xs" type="submit" disabled={!editing.trim()}>
              Send again
            </Button>
          </Group>
        </form>
      ) : (
        <Group gap={4} wrap="nowrap" align="flex-start" justify="space-between">
          <div className="answer">{message.content}</div>
          {onResend && (
            <Tooltip label="Edit and send again: the answers after it are replaced">
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                onClick={() => setEditing(message.content)}
                aria-label="Edit the question"
              >
                <IconPencil size={14} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      )}
    </Paper>
  );
}
