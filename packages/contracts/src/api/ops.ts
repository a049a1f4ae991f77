import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { DomainFilesReport } from './source-domains.ts';
import { AnyObject, Nullable, OneOf } from './common.ts';

const LinesQuery = Type.Object({ lines: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000 })) });
const LogsResponse = Type.Object({
  service: Nullable(Type.String()),
  lines: Type.Array(Type.String()),
  total_lines: Type.Integer(),
});
const ServiceStatus = Type.Object({
  name: Type.String(),
  state: Type.String(),
  pid: Nullable(Type.Integer()),
  uptime_seconds: Type.Number(),
  start_time: Nullable(Type.String()),
  description: Type.String(),
});
const CheckItem = Type.Object({
  status: OneOf(['ok', 'warning', 'error'] as const),
  message: Type.String(),
  details: Type.Optional(AnyObject),
  category: OneOf(['resource', 'service', 'operational'] as const),
  auto_recoverable: Type.Optional(Type.Boolean()),
});
/** One process of the deployment (docs/decisions/0042): the leader runs the deployment's background work. */
const ClusterNode = Type.Object({
  id: Type.String(),
  service: Type.String(),
  host: Type.String(),
  pid: Type.Integer(),
  role: OneOf(['leader', 'follower'] as const),
  started_at: Type.String(),
  last_heartbeat: Type.String(),
  alive: Type.Boolean({ description: 'its last heartbeat is at most 15 s old' }),
  self: Type.Boolean({ description: 'the node that answered' }),
});
const QueueStats = Type.Object({ queues: Type.Array(AnyObject), note: Type.String() });

export const opsEndpoints = {
  health: endpoint({
    method: 'GET',
    path: '/health',
    tag: 'health',
    status: 200,
    summary:
      'Overall status (ok, or degraded while a check is not ok), `healthy` (false only when a subsystem is unavailable: what wait scripts and load balancers poll), `checks` (embeddings, queue, search_index, graph, disk_space, database, provider, llm_worker, ops_worker) and each subsystem with its raw state',
    response: Type.Object({
      healthy: Type.Boolean(),
      status: OneOf(['ok', 'degraded'] as const),
      checks: Type.Record(Type.String(), CheckItem),
      version: Type.String(),
      timestamp: Type.String(),
      subsystems: Type.Record(
        Type.String(),
        Type.Object({
          status: OneOf(['ok', 'degraded', 'unavailable', 'not_configured'] as const),
          message: Type.Optional(Type.String()),
          details: Type.Optional(AnyObject),
        }),
      ),
      nodes: Type.Array(ClusterNode, {
        description: 'every node of the deployment, its role and last heartbeat (one node on SQLite)',
      }),
    }),
  }),
  edition: endpoint({
    method: 'GET',
    path: '/edition',
    tag: 'edition',
    status: 200,
    summary: 'Edition, version and license',
    response: Type.Object({
      edition: Type.String(),
      version: Type.String(),
      license: Type.Union([
        Type.Object({
          type: Type.String({ description: 'SPDX identifier of the licence the software is under' }),
          holder: Type.String(),
          expires: Type.Union([Type.String(), Type.Null()]),
        }),
        Type.Null(),
      ]),
      features: Type.Array(Type.String()),
    }),
  }),
  counts: endpoint({
    method: 'GET',
    path: '/counts',
    tag: 'counts',
    status: 200,
    summary:
      'Aggregate counts of the active database: the seven dashboard figures at the top level, and every registered count (plus databases) under `counts`',
    response: Type.Object({
      knowledge_nodes: Type.Integer(),
      links: Type.Integer(),
      templates: Type.Integer(),
      workflows: Type.Integer(),
      lenses: Type.Integer(),
      sources: Type.Integer(),
      awaiting_confirmation: Type.Integer(),
      database: Type.String(),
      counts: Type.Record(Type.String(), Type.Integer()),
    }),
  }),
  logs: endpoint({
    method: 'GET',
    path: '/logs',
    tag: 'logs',
    status: 200,
    errors: [422],
    query: LinesQuery,
    response: LogsResponse,
    summary: 'Recent lines of every managed service, interleaved by timestamp',
  }),
  logsStatus: endpoint({
    method: 'GET',
    path: '/logs/status',
    tag: 'logs',
    status: 200,
    summary: 'Process supervisor status of every service, and every node of the deployment with its role',
    response: Type.Object({
      available: Type.Boolean(),
      services: Type.Array(ServiceStatus),
      nodes: Type.Array(ClusterNode),
    }),
  }),
  serviceLogs: endpoint({
    method: 'GET',
    path: '/logs/{service_name}',
    tag: 'logs',
    status: 200,
    errors: [404, 422],
    summary: 'Recent lines of one service: cortex, neuron, nginx, valkey (and auth-verify)',
    params: Type.Object({ service_name: Type.String() }),
    query: LinesQuery,
    response: LogsResponse,
  }),
  diagnostics: endpoint({
    method: 'GET',
    path: '/diagnostics/export',
    tag: 'diagnostics',
    status: 200,
    produces: 'application/zip',
    summary:
      'chaoscypher-diagnostics.zip: system info, sanitized settings, database statistics, logs, queue and service status',
  }),
  pluginsReload: endpoint({
    method: 'POST',
    path: '/admin/plugins/reload',
    tag: 'admin',
    status: 200,
    summary: 'Clear plugin registry caches and read the drop-in domain files again',
    response: Type.Object({
      invalidated: Type.Array(Type.String()),
      total: Type.Integer(),
      domain_files: Type.Optional(DomainFilesReport),
    }),
  }),
  dashboard: endpoint({
    method: 'GET',
    path: '/system/dashboard',
    tag: 'system',
    status: 200,
    summary: 'Counts, llm, queue, workflows and processing at a glance',
    response: Type.Object({
      counts: Type.Record(Type.String(), Type.Integer()),
      llm: Type.Object({ data: AnyObject }),
      queue: QueueStats,
      workflows: Type.Record(Type.String(), Type.Number()),
      processing: AnyObject,
      // Extension (docs/decisions/0016-quality-scores-cached-per-source.md): the mean cached quality grade of the committed sources.
      quality: Type.Object({
        scored_sources: Type.Integer(),
        avg_quality_grade: Type.Number(),
        quality_label: Nullable(Type.String()),
      }),
    }),
  }),
};

export const upgradeEndpoints = {
  pending: endpoint({
    method: 'GET',
    path: '/upgrade/pending',
    tag: 'upgrade',
    status: 200,
    summary: 'Pending schema migrations of the active database',
    response: Type.Object({
      ready: Type.Boolean(),
      blocked_on: Type.Array(AnyObject),
      message: Type.String(),
      last_backup: Nullable(Type.String()),
      last_applied: Type.Array(Type.String()),
      data_changing: Type.Boolean(),
    }),
  }),
  apply: endpoint({
    method: 'POST',
    path: '/upgrade/apply',
    tag: 'upgrade',
    status: 200,
    summary: 'Apply pending migrations (backup first)',
    response: Type.Object({
      applied: Type.Array(Type.String()),
      current_revision: Nullable(Type.String()),
      backup_path: Nullable(Type.String()),
    }),
  }),
  rollback: endpoint({
    method: 'POST',
    path: '/upgrade/rollback',
    tag: 'upgrade',
    status: 200,
    errors: [404],
    summary: 'Restore the newest pre-upgrade backup of the active database',
    response: Type.Object({ restored_from: Type.String(), revision: Nullable(Type.String()) }),
  }),
};
