import type { OperationRegistry } from '@rhizome/queue';
import type { Db } from '../storage/index.ts';
import type { CountProbe, HealthProbe } from './probes.ts';

/** One named database and its connection: what a request or a task works on. */
export interface DatabaseHandle {
  name: string;
  db: Db;
}

/** Seed data for a database: idempotent, run whenever a process readies a database. */
export type SeedHook = (db: Db, databaseName: string) => Promise<void>;

/** Registers task operations: in the API only their lanes and policies are kept, in a worker their handlers too. */
export type TaskRegistrar = Pick<OperationRegistry, 'define'>;

/** Work that runs in the background for as long as the process that owns periodic work is up. */
export interface BackgroundJob<Host> {
  readonly name: string;
  /**
   * `node`: it keeps this process's own caches and runs on every node. Otherwise it acts for the whole
   * deployment and runs only on the node leading its background work (docs/decisions/0042).
   */
  readonly runsOn?: 'node';
  readonly start: (host: Host) => { stop(): Promise<void> };
}

/**
 * A feature as the platform sees it. Each `packages/core/src/<feature>/index.ts` exports one; the platform,
 * the worker and the API are assembled by folding over the list in `platform/modules.ts`.
 *
 * `Host` is what the module needs of the process it runs in, declared by the module itself from types
 * its owners export (never the whole platform). The members are properties, not methods, so that with
 * strictFunctionTypes the list in `platform/modules.ts` only compiles if the platform provides every host.
 */
export interface FeatureModule<Service = unknown, Host = never> {
  readonly name: string;
  /** The tables this module owns: only its files write them; others read them through its face or a declared read model. */
  readonly tables: readonly string[];
  /** Its task operations (names, lanes, policies and handlers). */
  readonly defineTasks?: (registry: TaskRegistrar, host: Host) => void;
  /** Its service for one database, built once per request (see the API's request scope) or task. */
  readonly service?: (host: Host, database: DatabaseHandle) => Service;
  /** Subsystem probes reported by GET /health, by subsystem name. */
  readonly health?: (host: Host) => Record<string, HealthProbe>;
  /** Entity counts reported by GET /databases and the statistics endpoints, by count name. */
  readonly counts?: Record<string, CountProbe>;
  /** Periodic work, run by the one process of a deployment that owns it (docs/decisions/0028). */
  readonly background?: readonly BackgroundJob<Host>[];
  /** Rows every new database starts with (run once, after its migrations). */
  readonly seeds?: readonly SeedHook[];
}

/** The service type a module's factory builds. */
export type ServiceOf<M> = M extends FeatureModule<infer Service, never> ? Service : never;
