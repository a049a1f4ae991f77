import type { HealthReport, SubsystemHealth } from '../module/index.ts';

/** One entry of the `checks` map of GET /health, the form scripts written for the older system read. */
export interface CheckItem {
  status: 'ok' | 'warning' | 'error';
  message: string;
  details?: Record<string, unknown>;
  category: 'resource' | 'service' | 'operational';
  auto_recoverable?: boolean;
}

/** Figures the health registry does not probe but the checks report: graph size and live workers. */
export interface CheckFigures {
  entities: number;
  relationships: number;
  llmWorkers: number;
  opsWorkers: number;
}

/** Subsystem name → check key and category. A subsystem not listed keeps its own name as an operational check. */
const checkOf: Record<string, { key: string; category: CheckItem['category']; auto_recoverable?: boolean }> = {
  database: { key: 'database', category: 'resource' },
  disk: { key: 'disk_space', category: 'resource', auto_recoverable: false },
  queue: { key: 'queue', category: 'service' },
  embeddings: { key: 'embeddings', category: 'service' },
  llm: { key: 'provider', category: 'service' },
  vector_index: { key: 'search_index', category: 'operational' },
};

const checkStatus: Record<SubsystemHealth['status'], CheckItem['status']> = {
  ok: 'ok',
  degraded: 'warning',
  not_configured: 'warning',
  unavailable: 'error',
};

function toCheck(subsystem: SubsystemHealth, category: CheckItem['category'], autoRecoverable?: boolean): CheckItem {
  return {
    status: checkStatus[subsystem.status],
    message: subsystem.message ?? subsystem.status,
    ...(subsystem.details ? { details: subsystem.details } : {}),
    category,
    ...(autoRecoverable === undefined ? {} : { auto_recoverable: autoRecoverable }),
  };
}

function workerCheck(active: number, queue: string): CheckItem {
  return active > 0
    ? { status: 'ok', message: `${active} ${queue} worker(s) active`, details: { active }, category: 'service' }
    : { status: 'warning', message: `no ${queue} worker heartbeat seen yet`, details: { active }, category: 'service' };
}

/** The `checks` map of GET /health: every subsystem of the report under its check key, plus graph and workers. */
export function healthChecks(report: HealthReport, figures: CheckFigures): Record<string, CheckItem> {
  const checks: Record<string, CheckItem> = {};
  for (const [name, subsystem] of Object.entries(report.subsystems)) {
    const { key, category, auto_recoverable } = checkOf[name] ?? { key: name, category: 'operational' };
    checks[key] = toCheck(subsystem, category, auto_recoverable);
  }
  checks.graph = {
    status: 'ok',
    message: `${figures.entities} entities, ${figures.relationships} relationships`,
    details: { entity_count: figures.entities, relationship_count: figures.relationships },
    category: 'operational',
  };
  checks.llm_worker = workerCheck(figures.llmWorkers, 'llm');
  checks.ops_worker = workerCheck(figures.opsWorkers, 'operations');
  return checks;
}

/** The overall status word of GET /health: ok, or degraded as soon as one check is not ok. */
export function overallStatus(checks: Record<string, CheckItem>): 'ok' | 'degraded' {
  return Object.values(checks).every((check) => check.status === 'ok') ? 'ok' : 'degraded';
}
