import { useState, type ReactNode } from 'react';
import { Button, Card, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCopy } from '@tabler/icons-react';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { runWithNotice } from '../../../lib/notify-action.ts';
import { MergeNotice } from './MergeNotice.tsx';
import { ProposalView } from './ProposalView.tsx';
import { ShortcutsHelp } from './ShortcutsHelp.tsx';
import { useDuplicateQueue, type QueueMerge } from './use-duplicate-queue.ts';
import { useQueueShortcuts, type QueueAction } from './use-queue-shortcuts.ts';
import { useUndoMerge } from './use-undo-merge.ts';

/** The proposals one at a time, decided with a click or a key; the last merge can be undone from here. */
export function ReviewQueue() {
  const queue = useDuplicateQueue();
  const undo = useUndoMerge();
  const [lastMerge, setLastMerge] = useState<QueueMerge | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const busy = queue.pending || undo.pending;

  const merge = () =>
    runWithNotice(
      async () => {
        const done = await queue.merge();
        if (done) setLastMerge(done);
      },
      { failure: 'Could not merge the entities' },
    );
  const reject = () =>
    runWithNotice(queue.reject, {
      success: 'They stay apart, and the pair will not be proposed again.',
      failure: 'Could not set the pair aside',
    });
  const undoLast = async () => {
    if (!lastMerge) return;
    const description = `“${lastMerge.keptLabel}” and “${lastMerge.mergedLabel}”`;
    if (await undo.run(lastMerge.mergeId, description)) setLastMerge(null);
  };

  const actions: Record<QueueAction, () => void> = {
    merge: () => void merge(),
    swap: queue.swapKept,
    reject: () => void reject(),
    skip: queue.skip,
    back: queue.back,
    undo: () => void undoLast(),
    help: () => setHelpOpen(true),
  };
  const decides: QueueAction[] = ['merge', 'swap', 'reject'];
  useQueueShortcuts((action) => {
    if (busy && action !== 'help') return;
    if (!queue.proposal && decides.includes(action)) return;
    actions[action]();
  }, !helpOpen);

  return (
    <Stack gap="md">
      {lastMerge && (
        <MergeNotice
          merge={lastMerge}
          undoing={undo.pending}
          onUndo={() => void undoLast()}
          onClose={() => setLastMerge(null)}
        />
      )}
      {queue.error ? (
        <ErrorNotice title="Could not load the proposals" message={queue.error} onRetry={() => void queue.reload()} />
      ) : queue.proposal && queue.keepId ? (
        <ProposalView
          proposal={queue.proposal}
          keepId={queue.keepId}
          position={queue.position}
          total={queue.total}
          pending={busy}
          onKeep={queue.keep}
          onMerge={actions.merge}
          onReject={actions.reject}
          onSkip={queue.skip}
          onBack={queue.back}
          onHelp={actions.help}
        />
      ) : queue.loading ? (
        <Skeleton h={420} />
      ) : queue.total > 0 ? (
        <QueueState
          icon={<IconCircleCheck size={28} />}
          title="You have seen every proposal"
          text={`The ${queue.total.toLocaleString()} you skipped are still waiting.`}
          action={<Button onClick={queue.restart}>Start again from the first</Button>}
        />
      ) : (
        <QueueState
          icon={<IconCopy size={28} />}
          title="No duplicates to review"
          text="When two entities look like one — the same or a similar name, one an alias of the other, shared neighbours, a close meaning — the pair appears here with its evidence, one at a time, for you to merge or keep apart. New pairs come as sources reach the graph."
        />
      )}
      <ShortcutsHelp opened={helpOpen} onClose={() => setHelpOpen(false)} />
    </Stack>
  );
}

function QueueState({
  icon,
  title,
  text,
  action,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  action?: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="xl" data-testid="queue-state">
      <Stack align="center" gap="sm" maw={560} mx="auto" ta="center">
        <ThemeIcon size={52} radius="xl" variant="light">
          {icon}
        </ThemeIcon>
        <Title order={2} fz="h3">
          {title}
        </Title>
        <Text c="dimmed" fz="sm">
          {text}
        </Text>
        {action}
      </Stack>
    </Card>
  );
}
