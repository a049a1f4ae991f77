import { clearProcessingState, type ClearedProcessingState } from '../extraction/index.ts';
import { forgetExtractionRuns } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import { refuseWhileProcessing } from './refusal.ts';

export interface ProcessingStateReset extends ClearedProcessingState {
  /** Sources whose staged, uncommitted run was dropped: they are indexed again, ready to extract. */
  sources_reset: number;
}

/**
 * The processing state: every extraction run with its staged groups, the per-chunk attempts (prompts and
 * raw answers) and the recovery events. Sources, chunks, vectors, the graph and its citations — everything
 * runs committed — stay.
 */
export async function resetProcessingState(db: Db): Promise<ProcessingStateReset> {
  return db.transaction(async (trx) => {
    await refuseWhileProcessing(trx, 'the processing state');
    const cleared = await clearProcessingState(trx);
    return { ...cleared, sources_reset: await forgetExtractionRuns(trx) };
  });
}
