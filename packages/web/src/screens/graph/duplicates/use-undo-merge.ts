import { nodeMergeEndpoints } from '@rhizome/contracts/api/node-merge';
import { useAction } from '../../../lib/data/use-action.ts';
import { runWithNotice } from '../../../lib/notify-action.ts';
import { duplicateReads } from './use-duplicate-queue.ts';

/**
 * Undoes a merge and says how it went; a merge that can no longer be undone (expired, or the kept entity
 * changed since) answers with the server's reason. Resolves to whether the merge was undone.
 */
export function useUndoMerge() {
  const undo = useAction(nodeMergeEndpoints.undo, { refreshes: duplicateReads });
  return {
    pending: undo.pending,
    run: async (mergeId: string, description: string): Promise<boolean> => {
      let undone = false;
      await runWithNotice(
        async () => {
          await undo.run({ params: { merge_id: mergeId } });
          undone = true;
        },
        { success: `Undone: ${description} are separate again.`, failure: 'Could not undo the merge' },
      );
      return undone;
    },
  };
}
