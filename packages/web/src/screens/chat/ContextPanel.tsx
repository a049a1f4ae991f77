import { Anchor, Box, Button, Collapse, Group, List, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight, IconStack2 } from '@tabler/icons-react';
import { useInspector } from '../../components/Inspector.tsx';
import { countOf } from '../../lib/format.ts';
import type { SentContext } from './stream-events.ts';

const percent = (part: number, whole: number) => (whole > 0 ? Math.min(100, (part / whole) * 100) : 0);
const tokens = (value: number) => `${value.toLocaleString()} tokens`;

/** What the answer was given: the share of the context window each part took, and the passages, entities and relationships. */
export function ContextPanel({ context }: { context: SentContext }) {
  const [opened, { toggle }] = useDisclosure(false);
  const { openNode, openPassage } = useInspector();
  const window = context.context_window;
  const parts = [
    { label: 'Instructions', value: context.system_tokens, color: 'gray' },
    { label: 'Conversation', value: context.history_tokens, color: 'blue' },
    { label: 'Passages', value: context.passage_tokens, color: 'teal' },
  ];
  const Chevron = opened ? IconChevronDown : IconChevronRight;
  return (
    <Box mt={6}>
      <Button
        variant="subtle"
        color="gray"
        size="compact-xs"
        leftSection={<IconStack2 size={14} />}
        rightSection={<Chevron size={14} />}
        onClick={toggle}
        aria-expanded={opened}
      >
        What was sent
      </Button>
      <Collapse expanded={opened}>
        <Stack gap="xs" mt={6} data-testid="context-panel">
          <div>
            <Text fz="xs" c="dimmed" mb={4}>
              Of the {tokens(window)} context window (estimated)
            </Text>
            <Progress.Root size="lg">
              {parts.map((part) => (
                <Tooltip key={part.label} label={`${part.label}: ${tokens(part.value)}`}>
                  <Progress.Section
                    value={percent(part.value, window)}
                    color={part.color}
                    aria-label={`${part.label}: share of the context window`}
                  />
                </Tooltip>
              ))}
            </Progress.Root>
            <Group gap="md" mt={4}>
              {parts.map((part) => (
                <Text key={part.label} fz="xs">
                  {part.label}: {tokens(part.value)} ({percent(part.value, window).toFixed(1)} %)
                </Text>
              ))}
            </Group>
            <Text fz="xs" c="dimmed" mt={2}>
              {countOf(context.history_messages, 'message')} of the conversation sent
              {context.dropped_messages ? `, ${context.dropped_messages} older left out to fit` : ''}; the conversation
              may take up to {tokens(context.history_budget_tokens)}.
            </Text>
          </div>
          <div>
            <Text fz="xs" fw={600}>
              Passages ({context.passages.length})
            </Text>
            {context.passages.length ? (
              <List size="xs" spacing={2}>
                {context.passages.map((passage) => (
                  <List.Item key={passage.chunk_id}>
                    <Anchor component="button" fz="xs" onClick={() => openPassage(passage.source_id, passage.chunk_id)}>
                      {passage.filename}
                      {passage.page_number !== null ? `, page ${passage.page_number}` : ''}
                    </Anchor>{' '}
                    · {countOf(passage.sentences, 'sentence')}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text fz="xs" c="dimmed">
                None retrieved.
              </Text>
            )}
          </div>
          <div>
            <Text fz="xs" fw={600}>
              Graph facts ({context.entities.length} entities, {context.facts.length} relationships)
            </Text>
            {context.entities.length > 0 && (
              <Group gap={4} mt={2}>
                {context.entities.slice(0, 30).map((entity) => (
                  <Anchor key={entity.id} component="button" fz="xs" onClick={() => openNode(entity.id)}>
                    {entity.label}
                  </Anchor>
                ))}
              </Group>
            )}
            {context.facts.length > 0 && (
              <List size="xs" spacing={2} mt={2}>
                {context.facts.slice(0, 30).map((fact) => (
                  <List.Item key={fact}>{fact}</List.Item>
                ))}
              </List>
            )}
            {!context.entities.length && !context.facts.length && (
              <Text fz="xs" c="dimmed">
                None.
              </Text>
            )}
          </div>
        </Stack>
      </Collapse>
    </Box>
  );
}
