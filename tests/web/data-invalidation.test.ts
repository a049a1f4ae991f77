import { describe, expect, it } from 'vitest';
import { graphEndpoints } from '@rhizome/contracts/api/graph';
import { queueEndpoints } from '@rhizome/contracts/api/queue';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import type { ChangeEventBody } from '@rhizome/contracts/api/events';
import { everything, executeWorkflowTask, refreshedBy } from '../../packages/web/src/lib/data/invalidation.ts';
import { isTargeted, keyOf } from '../../packages/web/src/lib/data/query-key.ts';

const task = (operation: string): ChangeEventBody =>
  ({ type: 'task', task: { task_id: 't1', operation, status: 'running' } }) as unknown as ChangeEventBody;
const stale = (event: ChangeEventBody, key: readonly unknown[]) => {
  const targets = refreshedBy(event);
  return targets === everything || isTargeted(key, targets);
};

/** The web cache's keys and the one map from change-stream events to the reads they make stale. */
describe('web data layer: cache keys and invalidation', () => {
  it('keys a read by tag, route and input, so two inputs of one endpoint are two entries', () => {
    const first = keyOf(sourceEndpoints.list, { query: { status: 'committed' } });
    expect(first).toEqual(['sources', 'GET /sources', { params: undefined, query: { status: 'committed' } }]);
    expect(keyOf(sourceEndpoints.list, { query: { status: 'error' } })).not.toEqual(first);
    expect(keyOf(sourceEndpoints.list, {}, 'all-pages')).toHaveLength(4);
  });

  it('targets every read of a tag, or only one endpoint of it', () => {
    const detail = keyOf(sourceEndpoints.get, { params: { source_id: 's1' } });
    expect(isTargeted(detail, [{ tag: 'sources' }])).toBe(true);
    expect(isTargeted(detail, [{ tag: 'sources', endpoint: sourceEndpoints.list }])).toBe(false);
    expect(isTargeted(detail, [{ tag: 'templates' }])).toBe(false);
  });

  it('refreshes the source lists and pages on a source change, and nothing of the templates', () => {
    const changed = { type: 'source_deleted', database: 'default', source_id: 's1' } as ChangeEventBody;
    expect(stale(changed, keyOf(sourceEndpoints.list, {}, 'all-pages'))).toBe(true);
    expect(stale(changed, keyOf(sourceEndpoints.get, { params: { source_id: 's1' } }))).toBe(true);
    expect(stale(changed, keyOf(templateEndpoints.list, {}))).toBe(false);
    expect(stale(changed, keyOf(graphEndpoints.canvas, {}))).toBe(false);
  });

  it('refreshes a workflow run’s reads only on the task events of workflow runs', () => {
    const runs = keyOf(workflowEndpoints.allExecutions, { query: { page_size: 50 } });
    expect(stale(task(executeWorkflowTask), runs)).toBe(true);
    expect(stale(task('sources.index'), runs)).toBe(false);
    expect(stale(task('sources.index'), keyOf(queueEndpoints.stats, {}))).toBe(true);
    expect(stale({ type: 'lanes', queues: [] }, keyOf(queueEndpoints.stats, {}))).toBe(true);
  });

  it('drops everything on a database switch', () => {
    expect(refreshedBy({ type: 'database', database: 'other' })).toBe(everything);
  });
});
