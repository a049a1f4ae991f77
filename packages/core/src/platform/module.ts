import type { OperationRegistry } from '@rhizome/queue';
import type { CountProbe, HealthProbe } from '../observability/index.ts';
import type { OpenDatabase, SeedHook } from '../databases/index.ts';
import type { Platform } from './create.ts';

/** One named database and its connection: what a request or a task works on. */
export type DatabaseHandle = OpenDatabase;

/** Registers task operations: in the API only their lanes and policies are kept, in a worker their handlers too. */
export type TaskRegistrar = Pick<OperationRegistry, 'define'>;

/** Work that runs in the background for as long as the process that owns periodic work is up. */
export interface BackgroundJob {
  name: string;
  start(platform: Platform): { stop(): Promise<void> };
}

/**
 * A feature as the platform sees it. Each `packages/core/src/<feature>/index.ts` exports one; the platform,
 * the worker and the API are assembled by folding over the list in `modules.ts`, so adding a feature means
 * adding its module there.
 */
export interface FeatureModule<Service = unknown> {
  readonly name: string;
  /** The tables this module owns: only its files write them; others read them through its face or a declared read model. */
  readonly tables: readonly string[];
  /** Its task operations (names, lanes, policies and handlers). */
  defineTasks?(registry: TaskRegistrar, platform: Platform): void;
  /** Its service for one database, built once per request (see the API's request scope) or task. */
  service?(platform: Platform, database: DatabaseHandle): Service;
  /** Subsystem probes reported by GET /health, by subsystem name. */
  health?(platform: Platform): Record<string, HealthProbe>;
  /** Entity counts reported by GET /databases and the statistics endpoints, by count name. */
  counts?: Record<string, CountProbe>;
  /** Periodic work, run by the one process of a deployment that owns it (docs/decisions/0028). */
  background?: readonly BackgroundJob[];
  /** Rows every new database starts with (run once, after its migrations). */
  seeds?: readonly SeedHook[];
}

/** The service type a module's factory builds. */
export type ServiceOf<M> = M extends FeatureModule<infer Service> ? Service : never;
