import { periodicJob, type DatabaseHandle } from '../../module/index.ts';
import type { ExtractionHost } from '../host.ts';
import { AgentExtraction } from './service.ts';

/** Abandonment is counted in hours (`mcp.abandon_after_hours`): a look every five minutes is precise enough. */
const sweepIntervalMs = 5 * 60_000;

/** The agent-driven extractions of one database. */
export function agentExtractionFor(
  platform: Pick<ExtractionHost, 'queue' | 'settings'>,
  { name, db }: DatabaseHandle,
): AgentExtraction {
  return new AgentExtraction({ db, database: name, queue: platform.queue, settings: () => platform.settings.get() });
}

async function sweep(platform: ExtractionHost): Promise<void> {
  try {
    for (const sourceId of await agentExtractionFor(platform, await platform.databases.current()).abandonIdle()) {
      platform.logger.info(`source ${sourceId}: agent extraction abandoned, no submission for mcp.abandon_after_hours`);
    }
  } catch (error) {
    platform.logger.warning(`agent extraction sweep: ${String(error)}`);
  }
}

/**
 * Agent extractions of the active database nobody touched for `mcp.abandon_after_hours` moved to `error`:
 * once at start-up (runs left while no process was up), then every five minutes, so no agent has to call
 * in for a forgotten run to end.
 */
export const agentAbandonmentSweep = periodicJob<ExtractionHost>(
  'agent-extraction-abandonment',
  sweepIntervalMs,
  sweep,
);
