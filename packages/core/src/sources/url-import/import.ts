import { DomainError, BadInput, ErrorCode } from '@rhizome/contracts/errors';
import type { QueueService, TaskStore } from '@rhizome/queue';
import { awaitTask } from '../../tasks/index.ts';
import { fetchUrlOperation } from '../operation-names.ts';
import { urlErrorTypes, type StagedFetch } from './staging.ts';

/**
 * A URL that was acceptable but could not be imported (unreachable, unreadable, too little text): 422
 * `OPERATION_ERROR` naming the operation (docs/api-conventions.md#errors).
 */
export class UrlImportFailed extends DomainError {
  readonly kind = 'invalid';
  constructor(url: string, why: string) {
    super(`Could not import ${url}: ${why}`, ErrorCode.operationError, { operation: 'url_import' });
  }
}

export interface UrlFetchDeps {
  database: string;
  queue: QueueService;
  tasks: TaskStore;
}

/**
 * The page or file behind a URL, fetched and staged by a worker under the URL-import address policy
 * (the fetch runs on the operations lane, never in the API process), waited for up to the fetch timeout
 * and 30 s more. An http(s) URL only: anything else, or one the policy refuses, is 400 naming `url`.
 */
export async function fetchForImport(
  deps: UrlFetchDeps,
  url: string,
  fetchTimeoutSeconds: number,
): Promise<StagedFetch> {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw BadInput.field('url must be an http:// or https:// URL', 'url');
  const task = await deps.queue.submit({
    queue: 'operations',
    operation: fetchUrlOperation,
    priority: 90,
    data: { database: deps.database, url },
    metadata: { database: deps.database },
  });
  const outcome = await awaitTask(deps.tasks, task.task_id, (fetchTimeoutSeconds + 30) * 1000);
  if (outcome.ok) return outcome.result as StagedFetch;
  if (outcome.errorType === urlErrorTypes.invalid || outcome.errorType === urlErrorTypes.refused)
    throw BadInput.field(outcome.error, 'url');
  throw new UrlImportFailed(url, outcome.error);
}
