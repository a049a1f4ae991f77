import { opsEndpoints as api } from '@rhizome/contracts/api/ops';
import { buildDiagnosticsZip, healthChecks, overallStatus, systemInfo } from '@rhizome/core/observability';
import { readAllLogs, readServiceLog } from '@rhizome/core/observability';
import { getServiceStatus } from '@rhizome/core/observability';
import { clusterNodes } from '@rhizome/core/platform';
import { workflowStats } from '@rhizome/core/automation';
import { corpusGrade } from '@rhizome/core/quality';
import { queueStats } from '@rhizome/core/tasks';
import { hoursAgo, llmQueueStats } from '@rhizome/core/providers';
import { domainRegistryFor } from '@rhizome/core/sources';
import { QueueUnavailableError } from '@rhizome/queue';
import { SecretName, readOrCreateSecret } from '@rhizome/auth';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';
import { logDomainFiles } from './source-domains.ts';

/** What this edition serves: every feature group of the API, and the package and registry formats. */
const editionFeatures = [
  ...['auth', 'backup', 'chats', 'counts', 'databases', 'diagnostics', 'edges', 'export', 'graph', 'health'],
  ...['lexicon', 'llm', 'logs', 'mcp', 'nodes', 'quality', 'queue', 'search', 'settings', 'sources'],
  ...['templates', 'tools', 'triggers', 'workflows', 'ccx-packages', 'registry'],
];

const defaultLogLines = 200;
const dashboardCounts = [
  'knowledge_nodes',
  'links',
  'templates',
  'workflows',
  'lenses',
  'sources',
  'awaiting_confirmation',
] as const;

export function mountOpsRoutes(routes: RouteTable, deps: CortexDeps): void {
  const { platform } = deps;
  const { paths, databases } = platform;

  routes.add(api.health, async ({ scope }) => {
    const report = await platform.health.check();
    const { db } = await scope.database();
    const now = Date.now();
    const [graph, llmWorkers, opsWorkers, nodes] = await Promise.all([
      platform.counts.collect(db, ['knowledge_nodes', 'links']),
      platform.tasks.workerCount('llm', now),
      platform.tasks.workerCount('operations', now),
      listedNodes(deps),
    ]);
    const checks = healthChecks(report, {
      entities: graph.knowledge_nodes,
      relationships: graph.links,
      llmWorkers,
      opsWorkers,
    });
    return {
      healthy: report.healthy,
      status: overallStatus(checks),
      checks,
      version: platform.version,
      timestamp: new Date().toISOString(),
      subsystems: report.subsystems,
      nodes,
    };
  });
  routes.add(api.edition, () => ({
    edition: 'community',
    version: platform.version,
    license: { type: 'Apache-2.0', holder: 'Rhizome contributors', expires: null },
    features: editionFeatures,
  }));
  routes.add(api.counts, async ({ scope }) => {
    const { name, db } = await scope.database();
    return {
      // collect answers every name asked for, so the dashboard figures are all present.
      ...((await platform.counts.collect(db, dashboardCounts)) as Record<(typeof dashboardCounts)[number], number>),
      database: name,
      counts: { ...(await platform.counts.collect(db)), databases: databases.list().length },
    };
  });
  routes.add(api.logs, ({ query }) => readAllLogs(paths.logsDir, query.lines ?? defaultLogLines));
  routes.add(api.logsStatus, async () => ({
    ...(await getServiceStatus(deps.supervisorUrl)),
    nodes: await listedNodes(deps),
  }));
  routes.add(api.serviceLogs, ({ params, query }) =>
    readServiceLog(paths.logsDir, params.service_name, query.lines ?? defaultLogLines),
  );
  routes.add(api.diagnostics, async ({ res, scope }) => {
    const current = await scope.database();
    const zip = await buildDiagnosticsZip({
      system: systemInfo(platform.version),
      settings: platform.settings.masked() as unknown as Record<string, unknown>,
      secrets: knownSecretValues(deps),
      databases: {
        current: current.name,
        databases: databases.list(),
        counts: await platform.counts.collect(current.db),
      },
      logsDir: paths.logsDir,
      queue: await queueStats(platform.tasks),
      services: await getServiceStatus(deps.supervisorUrl),
    });
    res.status(200).type('application/zip').attachment('chaoscypher-diagnostics.zip').send(zip);
  });
  routes.add(api.pluginsReload, async ({ scope }) => {
    const { invalidated, total } = platform.pluginCaches.clearAll();
    const domainFiles = (await domainRegistryFor((await scope.database()).db, paths.root)).reloadFiles();
    logDomainFiles(platform.logger, domainFiles);
    return { invalidated: [...invalidated, 'domains'], total: total + 1, domain_files: domainFiles };
  });
  routes.add(api.dashboard, async ({ scope }) => {
    const { db } = await scope.database();
    return {
      counts: await platform.counts.collect(db, dashboardCounts),
      llm: { data: await dashboardLlm(deps) },
      queue: await queueStats(platform.tasks),
      workflows: dashboardWorkflows(await workflowStats(db)),
      processing: await platform.processing.status(),
      quality: await corpusGrade(db),
    };
  });
}

/** The deployment's nodes, their roles and heartbeats; empty while the server holding the list cannot be reached. */
async function listedNodes({ platform }: CortexDeps) {
  return clusterNodes(platform).catch(() => []);
}

/** The llm monitor as GET /llm/stats answers it; empty while the queue store cannot be reached. */
async function dashboardLlm({ platform }: CortexDeps) {
  const sources = { tasks: platform.tasks, metrics: platform.providers.metrics, settings: platform.settings.get() };
  try {
    return await llmQueueStats(sources, hoursAgo(24));
  } catch (error) {
    if (error instanceof QueueUnavailableError) return {};
    throw error;
  }
}

/** Every secret value on this machine, so the diagnostics bundle can redact them wherever they appear. */
function knownSecretValues(deps: CortexDeps): string[] {
  const secretsDir = deps.platform.paths.secretsDir;
  return [deps.edgeToken, ...Object.values(SecretName).map((name) => readOrCreateSecret(secretsDir, name))];
}

/** The dashboard's workflow figures (the dashboard contract in packages/contracts/src/api/ops.ts): the stats without the pending count and average duration. */
function dashboardWorkflows({
  pending_executions: _pending,
  average_duration_ms: _average,
  ...figures
}: Awaited<ReturnType<typeof workflowStats>>) {
  return figures;
}
