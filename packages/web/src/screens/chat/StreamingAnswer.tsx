import { Badge, Box, Button, Card, Group, Loader, Paper, Text } from '@mantine/core';
import { JsonBlock } from '../../components/JsonBlock.tsx';
import { MessageContent } from './MessageContent.tsx';
import { ThinkingFold } from './ThinkingFold.tsx';
import { chatToolTitle, describeToolCall } from './tool-calls.ts';

export interface Approval {
  toolCallId: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** The answer being written: streamed text and thinking, the tools it runs, and an approval it waits for. */
export interface Turn {
  content: string;
  thinking: string;
  tools: string[];
  approval: Approval | null;
}

export const emptyTurn: Turn = { content: '', thinking: '', tools: [], approval: null };

/** The answer as it streams, with the tool call waiting for the operator's decision. */
export function StreamingAnswer({
  turn,
  onDecide,
}: {
  turn: Turn;
  onDecide: (decision: 'approve' | 'reject') => void;
}) {
  return (
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
      <ThinkingFold thinking={turn.thinking} live={!turn.content} />
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
            <Button size="xs" onClick={() => onDecide('approve')}>
              Allow
            </Button>
            <Button size="xs" variant="default" onClick={() => onDecide('reject')}>
              Deny
            </Button>
          </Group>
        </Card>
      )}
    </Paper>
  );
}
