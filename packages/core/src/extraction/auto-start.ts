import { ErrorCode, DomainError } from '@rhizome/contracts/errors';
import { getSource, updateSource, withLoaderWarning } from '../sources/index.ts';
import type { Db } from '../storage/index.ts';
import { NothingToExtractError, type ExtractionService } from './service.ts';

/**
 * Starts extraction of a source that just passed the gate (indexed with `auto_confirm` or a forced
 * domain, or confirmed), when it was uploaded with `extract_entities`. A provider that is not ready
 * leaves the source `indexed` with the reason, to be started later; so does a source with nothing to
 * extract, the reason added to its loader warnings. A refusal on the source itself (over the token
 * budget, an unknown domain) is its error.
 */
export async function startAfterGate(service: ExtractionService, db: Db, sourceId: string): Promise<void> {
  const source = await getSource(db, sourceId);
  if (!source || source.status !== 'indexed' || source.extract_entities !== 1) return;
  try {
    await service.start(sourceId);
  } catch (error) {
    if (error instanceof NothingToExtractError) {
      await updateSource(db, sourceId, { loader_warnings: withLoaderWarning(source, `Not extracted: nothing to extract, ${error.why}`), step_description: `Indexed; nothing to extract: ${error.why}` }, ['indexed']);
      return;
    }
    if (!(error instanceof DomainError)) throw error;
    const notReady = error.code === ErrorCode.llmNotVerified || error.code === ErrorCode.extractionModelMissing;
    if (error.code === ErrorCode.conflict) return;
    await updateSource(db, sourceId, notReady
      ? { step_description: `Indexed; extraction waits until the model provider is ready: ${error.message}` }
      : { status: 'error', error_stage: 'extraction', error_message: error.message, current_step: 'error', step_description: `Extraction refused: ${error.message}` }, ['indexed']);
  }
}
