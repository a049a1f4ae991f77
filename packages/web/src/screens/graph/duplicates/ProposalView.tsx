import type { ReactNode } from 'react';
import { ActionIcon, Button, Group, Kbd, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconGitMerge, IconKeyboard, IconX } from '@tabler/icons-react';
import { EntityCard } from './EntityCard.tsx';
import { EvidenceList } from './EvidenceList.tsx';
import { sidesOf, type DuplicateProposal } from './proposals.ts';

/** One proposal, large: both entities side by side, the evidence, and the decision. */
export function ProposalView({
  proposal,
  keepId,
  position,
  total,
  pending,
  onKeep,
  onMerge,
  onReject,
  onSkip,
  onBack,
  onHelp,
}: {
  proposal: DuplicateProposal;
  keepId: string;
  position: number;
  total: number;
  pending: boolean;
  onKeep: (id: string) => void;
  onMerge: () => void;
  onReject: () => void;
  onSkip: () => void;
  onBack: () => void;
  onHelp: () => void;
}) {
  const { kept } = sidesOf(proposal, keepId);
  return (
    <Stack gap="md" data-testid="duplicate-proposal" data-proposal-id={proposal.id}>
      <Group justify="space-between" gap="xs">
        <Text fw={600} aria-live="polite" data-testid="queue-position">
          {(position + 1).toLocaleString()} of {total.toLocaleString()}
        </Text>
        <Tooltip label="Keyboard shortcuts (?)">
          <ActionIcon
            variant="default"
            size="lg"
            onClick={onHelp}
            aria-label="Keyboard shortcuts"
            aria-keyshortcuts="?"
          >
            <IconKeyboard size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {proposal.nodes.map((node) => (
          <EntityCard
            key={node.id}
            node={node}
            kept={node.id === keepId}
            onKeep={() => onKeep(node.id)}
            disabled={pending}
          />
        ))}
      </SimpleGrid>
      <EvidenceList proposal={proposal} />
      <Group gap="xs" justify="space-between">
        <Group gap="xs">
          <ShortcutButton shortcut="m" onClick={onMerge} disabled={pending} icon={<IconGitMerge size={16} />}>
            Merge into “{kept.label}”
          </ShortcutButton>
          <ShortcutButton
            shortcut="n"
            variant="default"
            color="red"
            onClick={onReject}
            disabled={pending}
            icon={<IconX size={16} />}
          >
            Not duplicates
          </ShortcutButton>
        </Group>
        <Group gap="xs">
          <ShortcutButton
            shortcut="←"
            variant="subtle"
            onClick={onBack}
            disabled={position === 0}
            icon={<IconArrowLeft size={16} />}
          >
            Back
          </ShortcutButton>
          <ShortcutButton shortcut="s" variant="default" onClick={onSkip} icon={<IconArrowRight size={16} />}>
            Skip
          </ShortcutButton>
        </Group>
      </Group>
    </Stack>
  );
}

/** A queue action with its key shown beside the label (and announced as its shortcut). */
function ShortcutButton({
  shortcut,
  icon,
  children,
  variant = 'filled',
  color,
  onClick,
  disabled,
}: {
  shortcut: string;
  icon: ReactNode;
  children: ReactNode;
  variant?: 'filled' | 'default' | 'subtle';
  color?: string;
  onClick: () => void;
  disabled?: boolean;
}) {
  const keyName = { '←': 'ArrowLeft' }[shortcut] ?? shortcut;
  return (
    <Button
      variant={variant}
      color={color}
      leftSection={icon}
      rightSection={
        <Kbd size="xs" aria-hidden visibleFrom="sm">
          {shortcut}
        </Kbd>
      }
      onClick={onClick}
      disabled={disabled}
      aria-keyshortcuts={keyName}
      styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis' } }}
      maw="100%"
    >
      {children}
    </Button>
  );
}
