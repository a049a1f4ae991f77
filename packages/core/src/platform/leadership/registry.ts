import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { createTables, type Db } from '../../storage/index.ts';

export type NodeRole = 'leader' | 'follower';

/** One process of the deployment as GET /health and GET /logs/status list it. */
export interface ClusterNode {
  id: string;
  service: string;
  host: string;
  pid: number;
  role: NodeRole;
  started_at: string;
  last_heartbeat: string;
  /** Its last heartbeat is recent (within `staleAfterMs`); a node killed without stopping stays listed, not alive. */
  alive: boolean;
  /** The node answering this request. */
  self: boolean;
}

/** A node whose heartbeat is older than this is reported not alive (three missed heartbeats). */
export const heartbeatIntervalMs = 5_000;
const staleAfterMs = 3 * heartbeatIntervalMs;
/** A node silent this long is removed from the list. */
const forgetAfterMs = 60 * 60 * 1000;

const scripts = {
  sqlite: `
CREATE TABLE IF NOT EXISTS cluster_nodes (
  node_id TEXT PRIMARY KEY, service TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, role TEXT NOT NULL,
  started_at TEXT NOT NULL, last_heartbeat TEXT NOT NULL
);
`,
  postgres: `
CREATE TABLE IF NOT EXISTS cluster_nodes (
  node_id text PRIMARY KEY, service text NOT NULL, host text NOT NULL, pid integer NOT NULL, role text NOT NULL,
  started_at text NOT NULL, last_heartbeat text NOT NULL
);
`,
};

interface NodeRow {
  node_id: string;
  service: string;
  host: string;
  pid: number;
  role: string;
  started_at: string;
  last_heartbeat: string;
}

/** This process as a node: an id no restart reuses. */
export function thisNode(service: string): Omit<ClusterNode, 'alive' | 'self' | 'last_heartbeat'> {
  return {
    id: `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    service,
    host: os.hostname(),
    pid: process.pid,
    role: 'follower',
    started_at: new Date().toISOString(),
  };
}

/** Where the nodes are listed: every node's reads and its own heartbeats. */
export interface NodeRegistry {
  /** Writes this node's row with a fresh heartbeat and its role. */
  beat(role: NodeRole): Promise<void>;
  /** This node leads now: its row says so and no other row does. */
  lead(): Promise<void>;
  list(): Promise<ClusterNode[]>;
  /** Removes this node's row (a clean stop). */
  leave(): Promise<void>;
}

/**
 * The nodes in `cluster_nodes` of the shared system tables (`rhizome_system` on PostgreSQL). Heartbeats
 * are each node's own clock; machines of one deployment are expected to keep time (NTP), and a node is
 * reported not alive only after three missed heartbeats.
 */
export class TableRegistry implements NodeRegistry {
  private constructor(
    private readonly db: Db,
    private readonly node: ReturnType<typeof thisNode>,
  ) {}

  static async open(db: Db, node: ReturnType<typeof thisNode>): Promise<TableRegistry> {
    await createTables(db, scripts);
    const registry = new TableRegistry(db, node);
    await registry.beat('follower');
    return registry;
  }

  async beat(role: NodeRole): Promise<void> {
    const now = new Date();
    await this.db('cluster_nodes')
      .insert({
        node_id: this.node.id,
        service: this.node.service,
        host: this.node.host,
        pid: this.node.pid,
        role,
        started_at: this.node.started_at,
        last_heartbeat: now.toISOString(),
      })
      .onConflict('node_id')
      .merge(['role', 'last_heartbeat']);
    await this.db('cluster_nodes')
      .where('last_heartbeat', '<', new Date(now.getTime() - forgetAfterMs).toISOString())
      .delete();
  }

  async lead(): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('cluster_nodes').whereNot('node_id', this.node.id).where('role', 'leader').update({ role: 'follower' });
      await trx('cluster_nodes')
        .where('node_id', this.node.id)
        .update({ role: 'leader', last_heartbeat: new Date().toISOString() });
    });
  }

  async list(): Promise<ClusterNode[]> {
    const rows = (await this.db('cluster_nodes').select('*').orderBy('started_at')) as NodeRow[];
    const now = Date.now();
    return rows.map((row) => ({
      id: row.node_id,
      service: row.service,
      host: row.host,
      pid: Number(row.pid),
      role: row.role === 'leader' ? 'leader' : 'follower',
      started_at: row.started_at,
      last_heartbeat: row.last_heartbeat,
      alive: now - Date.parse(row.last_heartbeat) <= staleAfterMs,
      self: row.node_id === this.node.id,
    }));
  }

  async leave(): Promise<void> {
    await this.db('cluster_nodes').where('node_id', this.node.id).delete();
  }
}

/** The embedded default and SQLite: the one process is the one node, kept in memory. */
export class SoleRegistry implements NodeRegistry {
  private role: NodeRole = 'follower';
  private heartbeat = new Date().toISOString();

  constructor(private readonly node: ReturnType<typeof thisNode>) {}

  async beat(role: NodeRole): Promise<void> {
    this.role = role;
    this.heartbeat = new Date().toISOString();
  }

  async lead(): Promise<void> {
    await this.beat('leader');
  }

  async list(): Promise<ClusterNode[]> {
    return [{ ...this.node, role: this.role, last_heartbeat: this.heartbeat, alive: true, self: true }];
  }

  async leave(): Promise<void> {}
}
