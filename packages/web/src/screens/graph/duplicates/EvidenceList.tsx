import { Badge, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { evidenceName, percentOf, type DuplicateProposal } from './proposals.ts';

/** Why the pair was proposed: each piece of evidence with its weight, and the score they add up to. */
export function EvidenceList({ proposal }: { proposal: DuplicateProposal }) {
  const strongest = Math.max(...proposal.evidence.map((item) => Math.abs(item.weight)), 1e-9);
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="duplicate-evidence">
      <Group justify="space-between" mb="xs" gap="xs">
        <Title order={2} fz="md" id="duplicate-evidence">
          Why they look alike
        </Title>
        <Badge size="lg" variant="light" tt="none" data-testid="duplicate-score">
          Score {percentOf(proposal.score)}
        </Badge>
      </Group>
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {proposal.evidence.map((item, index) => (
          <li key={`${item.kind}-${index}`}>
            <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
              <Text fz="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                <Text span fw={600} fz="sm">
                  {evidenceName(item.kind)}:
                </Text>{' '}
                {item.detail}
              </Text>
              <Text fz="sm" ff="monospace" style={{ flexShrink: 0 }} c={item.weight < 0 ? 'red' : undefined}>
                {item.weight >= 0 ? '+' : '−'}
                {Math.abs(item.weight).toFixed(2)}
              </Text>
            </Group>
            <Progress
              value={(Math.abs(item.weight) / strongest) * 100}
              color={item.weight < 0 ? 'red' : undefined}
              size="xs"
              mt={4}
              aria-hidden
            />
          </li>
        ))}
      </Stack>
    </Card>
  );
}
