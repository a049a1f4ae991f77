import { useState } from 'react';
import { duplicateEndpoints } from '@rhizome/contracts/api/duplicates';
import { nodeMergeEndpoints } from '@rhizome/contracts/api/node-merge';
import { useAction } from '../../../lib/data/use-action.ts';
import { useEndpoint } from '../../../lib/data/use-endpoint.ts';
import { sidesOf, type DuplicateProposal } from './proposals.ts';

const pageSize = 50;

/** A merge made from the queue, kept until it is undone or the next one replaces it. */
export interface QueueMerge {
  mergeId: string;
  keptLabel: string;
  mergedLabel: string;
}

/** What a decision changes: the proposals, the merges list, and the entities (the graph's reads). */
export const duplicateReads = [
  { tag: duplicateEndpoints.list.tag },
  { tag: nodeMergeEndpoints.merge.tag },
  { tag: nodeMergeEndpoints.merges.tag },
];

/**
 * The review queue: one proposal at a time by its position among all of them (a page is read at a time).
 * Merging or rejecting removes the pair from the server's list, so the same position then shows the next
 * one; skipping moves on and leaves the pair for another time.
 */
export function useDuplicateQueue() {
  const [position, setPosition] = useState(0);
  const [keepChoice, setKeepChoice] = useState<Record<string, string>>({});
  const page = Math.floor(position / pageSize) + 1;
  const list = useEndpoint(duplicateEndpoints.list, { query: { page, page_size: pageSize } });
  const merge = useAction(nodeMergeEndpoints.merge, { refreshes: duplicateReads });
  const reject = useAction(duplicateEndpoints.reject, { refreshes: duplicateReads });

  const current = list.data?.pagination.page === page ? list.data : undefined;
  const total = list.data?.pagination.total ?? 0;
  const proposal: DuplicateProposal | undefined = current?.data[position % pageSize];
  const keepId = proposal ? (keepChoice[proposal.id] ?? proposal.keep_id) : undefined;

  return {
    proposal,
    keepId,
    position,
    total,
    loading: list.loading,
    error: list.error,
    reload: list.reload,
    pending: merge.pending || reject.pending,
    swapKept: () => {
      if (!proposal || !keepId) return;
      setKeepChoice((choice) => ({ ...choice, [proposal.id]: sidesOf(proposal, keepId).merged.id }));
    },
    keep: (id: string) => proposal && setKeepChoice((choice) => ({ ...choice, [proposal.id]: id })),
    skip: () => setPosition((at) => Math.min(at + 1, total)),
    back: () => setPosition((at) => Math.max(at - 1, 0)),
    restart: () => setPosition(0),
    /** Merges the shown pair into the kept entity; resolves once the queue shows what comes next. */
    merge: async (): Promise<QueueMerge | undefined> => {
      if (!proposal || !keepId) return undefined;
      const { kept, merged } = sidesOf(proposal, keepId);
      const result = await merge.run({ params: { node_id: kept.id }, body: { node_ids: [merged.id] } });
      return { mergeId: result.merge_id, keptLabel: kept.label, mergedLabel: merged.label };
    },
    reject: async (): Promise<void> => {
      if (proposal) await reject.run({ params: { proposal_id: proposal.id } });
    },
  };
}
