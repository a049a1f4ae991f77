import { Box, Button, Collapse, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBulb, IconChevronDown, IconChevronRight } from '@tabler/icons-react';

/** The model's reasoning before its answer, folded away until asked for. */
export function ThinkingFold({ thinking, live = false }: { thinking: string; live?: boolean }) {
  const [opened, { toggle }] = useDisclosure(false);
  const text = thinking.trim();
  if (!text) return null;
  const Chevron = opened ? IconChevronDown : IconChevronRight;
  return (
    <Box mb="xs" data-testid="thinking">
      <Button
        variant="subtle"
        color="gray"
        size="compact-xs"
        leftSection={<IconBulb size={14} />}
        rightSection={<Chevron size={14} />}
        onClick={toggle}
        aria-expanded={opened}
      >
        {live ? 'Thinking…' : 'How the model thought it through'}
      </Button>
      <Collapse expanded={opened}>
        <Text
          fz="sm"
          c="dimmed"
          mt={4}
          pl="sm"
          style={{ whiteSpace: 'pre-wrap', borderLeft: '2px solid var(--mantine-color-default-border)' }}
        >
          {text}
        </Text>
      </Collapse>
    </Box>
  );
}
