import type { Logger } from '../../logging.ts';
import type { Platform } from '../create.ts';
import { AdvisoryLease, soleLease, type Lease } from './lease.ts';
import {
  heartbeatIntervalMs,
  SoleRegistry,
  TableRegistry,
  thisNode,
  type ClusterNode,
  type NodeRegistry,
  type NodeRole,
} from './registry.ts';

/** A follower asks for the lease this often; a leader checks it still holds it as often. */
export const leaseRetryMs = 2_000;

export interface RunningJobs {
  stop(): Promise<void>;
}

/**
 * One node of the deployment: it heartbeats into the node registry, and whichever node holds the lease
 * runs the deployment's background jobs (`lead`), stopping them the moment the lease is lost. A node
 * that does not hold it asks again every `leaseRetryMs`, so when the leader dies another takes over
 * within a few seconds. Ticks never overlap, so the jobs are started and stopped by one caller at a time.
 */
export class Leadership {
  private role: NodeRole = 'follower';
  private jobs: RunningJobs | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private stopped = false;
  private lastBeat = 0;
  private warned = false;

  constructor(
    private readonly lease: Lease,
    readonly registry: NodeRegistry,
    private readonly lead: () => RunningJobs,
    private readonly logger: Logger,
  ) {}

  /** Takes the first turn at once, so a lone node leads before its first request. */
  start(): Promise<void> {
    this.ticking = this.tick();
    return this.ticking;
  }

  currentRole(): NodeRole {
    return this.role;
  }

  /** Called when the lease's connection broke: the jobs stop now, the next turn asks for the lease again. */
  lost(reason: string): void {
    this.ticking = this.ticking.then(() => this.stepDown(`lost the background lease: ${reason}`));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await this.stepDown('stopping');
    await this.lease.release();
    await this.registry.leave().catch(() => undefined);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      if (this.jobs) {
        if (!(await this.lease.check())) await this.stepDown('lost the background lease');
      } else if (await this.lease.tryAcquire()) {
        await this.stepUp();
      }
      this.warned = false;
    } catch (error) {
      await this.lease.release();
      // Once per outage: a follower asks every few seconds while the server is away.
      if (!this.warned) this.logger.warning(`background lease: ${String(error)}`);
      this.warned = true;
    }
    if (Date.now() - this.lastBeat >= heartbeatIntervalMs) {
      this.lastBeat = Date.now();
      await this.registry.beat(this.role).catch((error: unknown) => {
        this.logger.warning(`node heartbeat: ${String(error)}`);
      });
    }
    if (!this.stopped) {
      this.timer = setTimeout(() => {
        this.ticking = this.ticking.then(() => this.tick());
      }, leaseRetryMs);
      this.timer.unref();
    }
  }

  private async stepUp(): Promise<void> {
    this.role = 'leader';
    this.jobs = this.lead();
    await this.registry.lead().catch((error: unknown) => this.logger.warning(`node registry: ${String(error)}`));
    this.lastBeat = Date.now();
  }

  private async stepDown(reason: string): Promise<void> {
    const jobs = this.jobs;
    this.jobs = undefined;
    if (!jobs) return;
    this.logger.warning(`background jobs stopping on this node: ${reason}`);
    await jobs.stop();
    this.role = 'follower';
    await this.lease.release();
    // The next turn writes the new role: a lease lost with its server is no moment to open connections.
    this.lastBeat = 0;
  }
}

const leaderships = new WeakMap<Platform, Leadership>();

/**
 * Starts this process's part in the deployment's background work. On a PostgreSQL server the lease is an
 * advisory lock and the nodes are listed in `rhizome_system.cluster_nodes`; otherwise (SQLite, the
 * embedded default) the process is the only node and always leads.
 */
export async function joinDeployment(
  platform: Platform,
  service: string,
  lead: () => RunningJobs,
): Promise<Leadership> {
  const node = thisNode(service);
  const server = platform.server;
  let leadership: Leadership;
  if (server) {
    const registry = await TableRegistry.open(await server.system(), node);
    const lease = new AdvisoryLease(server.url, 'rhizome:background', (reason) => leadership.lost(reason));
    leadership = new Leadership(lease, registry, lead, platform.logger);
  } else {
    leadership = new Leadership(soleLease, new SoleRegistry(node), lead, platform.logger);
  }
  leaderships.set(platform, leadership);
  await leadership.start();
  return leadership;
}

/** Every node of the deployment with its role and last heartbeat, as this process's registry lists them. */
export async function clusterNodes(platform: Platform): Promise<ClusterNode[]> {
  return (await leaderships.get(platform)?.registry.list()) ?? [];
}

export type { ClusterNode };
