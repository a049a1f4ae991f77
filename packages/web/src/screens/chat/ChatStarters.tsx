import { Button, Stack, Text } from '@mantine/core';
import { IconBulb } from '@tabler/icons-react';
import { chatEndpoints } from '@rhizome/contracts/api/chats';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

/** An empty chat: what it does, and questions about the graph's most central entities to start with. */
export function ChatStarters({ onAsk }: { onAsk: (question: string) => void }) {
  const starters = useEndpoint(chatEndpoints.starters, { query: { limit: 4 } });
  const questions = starters.data?.starters ?? [];
  return (
    <Stack align="center" gap="xs" mt="xl">
      <Text c="dimmed" ta="center">
        Ask a question about your sources. Answers cite the sentences they rely on; click a citation to read it in its
        passage.
      </Text>
      {questions.length > 0 && (
        <Stack gap={6} align="center" data-testid="chat-starters" role="group" aria-label="Suggested questions">
          <Text fz="xs" c="dimmed">
            Or start from what your graph is most about:
          </Text>
          {questions.map((starter) => (
            <Button
              key={starter.question}
              variant="light"
              size="xs"
              leftSection={<IconBulb size={14} />}
              onClick={() => onAsk(starter.question)}
              styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
              h="auto"
              py={6}
            >
              {starter.question}
            </Button>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
