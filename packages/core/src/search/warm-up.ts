import type { BackgroundJob } from '../module/index.ts';
import { graphAdjacency } from './graph/adjacency.ts';
import type { SearchHost } from './host.ts';
import { readGraphVersion } from './read-model/graph-rows.ts';
import { passageGraph } from './graph/passages.ts';

/**
 * Builds the active database's graph-search adjacency and passage graph now, so the first graph or hybrid
 * search does not pay for them (seconds at a million edges).
 */
async function warmGraphSearch(platform: SearchHost): Promise<void> {
  try {
    const { db } = await platform.databases.current();
    const version = await readGraphVersion(db);
    await passageGraph(db, await graphAdjacency(db, version), version);
  } catch (error) {
    platform.logger.warning(`graph search warm-up: ${String(error)}`);
  }
}

/** Once at start-up; stop waits for it: a warm-up query issued after the database closed would hold the process for a minute. */
export const graphSearchWarmUp: BackgroundJob<SearchHost> = {
  name: 'graph-search-warm-up',
  runsOn: 'node',
  start(platform) {
    const warming = warmGraphSearch(platform);
    return { stop: () => warming };
  },
};
