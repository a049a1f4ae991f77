/** One outcome in the result of a batch task, in the order of the operations. */
export interface BatchOutcome {
  index: number;
  operation: string;
  success: boolean;
  id?: string;
  error?: string;
}

/** The result of every batch task (nodes, edges, templates). */
export interface BatchResult {
  results: BatchOutcome[];
  succeeded: number;
  failed: number;
}

export function batchResult(results: BatchOutcome[]): BatchResult {
  const succeeded = results.filter((outcome) => outcome.success).length;
  return { results, succeeded, failed: results.length - succeeded };
}
