import pg from 'pg';

/** The first key of the background lease's advisory lock (the schemas' transaction locks use 0x52485a4d). */
const leaseSpace = 0x52485a4e;

/** Who may run the deployment's background work: held by one node at a time. */
export interface Lease {
  /** Takes the lease if no one holds it; true while this node holds it. */
  tryAcquire(): Promise<boolean>;
  /** Whether the lease is still held (its connection answers); false once lost. */
  check(): Promise<boolean>;
  release(): Promise<void>;
}

/** SQLite and the embedded default: one process is the deployment, so it always leads. */
export const soleLease: Lease = {
  tryAcquire: async () => true,
  check: async () => true,
  release: async () => undefined,
};

/**
 * A session-level advisory lock held on a connection of its own (not the pool's: a pooled connection goes
 * back to others, and the lock would go with it). A process that dies closes its socket, the server ends
 * the session and the lock is free for the next node that asks; `onLost` reports a connection that broke
 * while this node held it, so the jobs stop before another node can start them.
 */
export class AdvisoryLease implements Lease {
  private client: pg.Client | undefined;
  private held = false;

  constructor(
    private readonly url: string,
    private readonly name: string,
    private readonly onLost: (reason: string) => void,
  ) {}

  async tryAcquire(): Promise<boolean> {
    if (this.held) return this.check();
    const client = (this.client ??= await this.connect());
    const [row] = (
      await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [
        leaseSpace,
        this.name,
      ])
    ).rows;
    this.held = row?.locked === true;
    return this.held;
  }

  async check(): Promise<boolean> {
    if (!this.held || !this.client) return false;
    try {
      await this.client.query('SELECT 1');
      return true;
    } catch {
      this.lose('its connection does not answer');
      return false;
    }
  }

  async release(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.held = false;
    // Ending the session releases the lock with it.
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    const broke = (reason: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.held) this.lose(reason);
    };
    client.on('error', (error) => broke(`its connection failed: ${error.message}`));
    client.on('end', () => broke('its connection closed'));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  private lose(reason: string): void {
    this.held = false;
    const client = this.client;
    this.client = undefined;
    void client?.end().catch(() => undefined);
    this.onLost(reason);
  }
}
