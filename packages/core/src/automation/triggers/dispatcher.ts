import { describeError } from '@rhizome/contracts/errors';
import type { QueueLogger, QueueService } from '@rhizome/queue';
import type { DatabaseManager } from '../../databases/index.ts';
import type { GraphEvent } from '../../graph/index.ts';
import { submitExecution } from '../engine/operation.ts';
import { fromJson, newId } from '../rows.ts';
import { autoEmbedTriggerId } from '../seeds.ts';
import { executionInputs, matchFilters } from './matching.ts';
import { armedTriggers } from './repo.ts';

interface ArmedTrigger {
  id: string;
  workflowId: string;
  filters: Record<string, unknown>;
  workflowInputs: Record<string, unknown> | null;
}

/** A graph event (or any `{entity}.{action}` event) as the dispatcher handles it. */
type DispatchedEvent = { source: string; database: string; payload: Record<string, unknown>; embedsItself?: boolean };

/** `node.create of node n_1 in 'default'`: the event as a log line names it. */
function describeEvent({ source, database, payload }: DispatchedEvent): string {
  const entity =
    typeof payload.entity_id === 'string' ? ` of ${String(payload.entity_type ?? 'entity')} ${payload.entity_id}` : '';
  return `${source}${entity} in '${database}'`;
}

/** Armed triggers of one database by event source, lower priority first. */
type TriggerIndex = Map<string, ArmedTrigger[]>;

/**
 * A cached index is reloaded after this long even without a change notice: writes no notice covers
 * (a database restored from a backup) are picked up within it.
 */
const cacheTtlMs = 30_000;

export interface DispatcherDeps {
  databases: DatabaseManager;
  queue: QueueService;
  /** Queue priority of trigger-started executions (`priorities.background`). */
  priority(): number;
  logger: QueueLogger;
}

/**
 * Starts workflows for graph events. The enabled triggers of each database are cached (loaded on the
 * first event, dropped whenever triggers or workflows change, here or in another process, and reloaded
 * after `cacheTtlMs` in any case), so handling an event costs a map lookup, the filter checks and one
 * enqueue per matching trigger, in the order of their priority, lower first. The execution row is
 * written by the task when it starts.
 */
export class TriggerDispatcher {
  readonly #cache = new Map<string, { index: Promise<TriggerIndex>; loadedAt: number }>();
  readonly #warned = new Set<string>();
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly deps: DispatcherDeps) {}

  /** Handles one event; resolves once its executions are queued. */
  dispatch(event: DispatchedEvent): Promise<void> {
    const work = this.#dispatch(event).catch((error: unknown) => {
      this.deps.logger.error(
        `no trigger started for ${describeEvent(event)}: its triggers could not be read: ${describeError(error)}`,
      );
    });
    const tracked: Promise<void> = work.finally(() => this.#pending.delete(tracked));
    this.#pending.add(tracked);
    return tracked;
  }

  readonly onGraphEvent = (event: GraphEvent): void => {
    void this.dispatch(event);
  };

  /** Drops the cached triggers of `database` (all when omitted). */
  invalidate(database?: string): void {
    if (database === undefined) this.#cache.clear();
    else this.#cache.delete(database);
  }

  /** Resolves once every event handed over so far has been dispatched. */
  async settled(): Promise<void> {
    while (this.#pending.size) await Promise.all(this.#pending);
  }

  async #dispatch(event: DispatchedEvent): Promise<void> {
    const triggers = (await this.#index(event.database)).get(event.source);
    if (!triggers) return;
    const matching = triggers.filter((trigger) => {
      // Commit and import embed what they create: a 100k-node import would otherwise queue 100k no-op executions.
      if (event.embedsItself && trigger.id === autoEmbedTriggerId) return false;
      const verdict = matchFilters(trigger.filters, event.payload);
      if (!verdict.matches && verdict.absentKey !== undefined)
        this.#warnAbsent(trigger, event.source, verdict.absentKey);
      return verdict.matches;
    });
    // Submitted together, in priority order: the queue writes one turn's enqueues as one batch, in order.
    await Promise.all(
      matching.map((trigger) =>
        submitExecution(
          this.deps.queue,
          {
            database: event.database,
            execution_id: newId('exec'),
            workflow_id: trigger.workflowId,
            inputs: executionInputs(event.payload, trigger.workflowInputs),
            trigger_id: trigger.id,
          },
          this.deps.priority(),
        ).catch((error: unknown) => this.#notStarted(trigger, event, error)),
      ),
    );
  }

  /** The event happened but its workflow will not run: said at error level, with what an operator needs to redo it. */
  #notStarted(trigger: ArmedTrigger, event: DispatchedEvent, error: unknown): void {
    const redo =
      trigger.id === autoEmbedTriggerId
        ? ' (the node vector sweep embeds the node later)'
        : '; run the workflow by hand if its effect is needed';
    this.deps.logger.error(
      `trigger ${trigger.id} did not start workflow ${trigger.workflowId} for ${describeEvent(event)}: ${describeError(error)}${redo}`,
    );
  }

  #index(database: string): Promise<TriggerIndex> {
    const cached = this.#cache.get(database);
    if (cached && Date.now() - cached.loadedAt < cacheTtlMs) return cached.index;
    const index = this.#load(database);
    const entry = { index, loadedAt: Date.now() };
    this.#cache.set(database, entry);
    index.catch(() => {
      if (this.#cache.get(database) === entry) this.#cache.delete(database);
    });
    return index;
  }

  async #load(database: string): Promise<TriggerIndex> {
    const rows = await armedTriggers(await this.deps.databases.connection(database));
    const index: TriggerIndex = new Map();
    for (const row of rows) {
      const list = index.get(row.event_source) ?? [];
      list.push({
        id: row.id,
        workflowId: row.workflow_id,
        filters: fromJson(row.filters, {}),
        workflowInputs: fromJson(row.workflow_inputs, null),
      });
      index.set(row.event_source, list);
    }
    return index;
  }

  /** Once per trigger and key: a filter on a key the event never carries can never match. */
  #warnAbsent(trigger: ArmedTrigger, source: string, key: string): void {
    const once = `${trigger.id}:${key}`;
    if (this.#warned.has(once)) return;
    this.#warned.add(once);
    this.deps.logger.warning(
      `trigger ${trigger.id}: filter key '${key}' is not in the ${source} payload, so the trigger never matches it`,
    );
  }
}
