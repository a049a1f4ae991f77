import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Conflict } from '@rhizome/contracts/errors';
import { parseCredentials, type Credentials, type CredentialsStore } from './credentials.ts';
import type { KeyUsageStore } from './key-usage.ts';
import { SecretName } from './secrets.ts';
import type { AuthFiles, AuthStores } from './verifier.ts';

/** The statements the store runs, on the server's pool (schema-qualified, so any search_path will do). */
export interface SqlRunner {
  query(sql: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
}

/** How the processes of a deployment tell each other that the credentials changed (the platform's pub/sub). */
export interface ChangeChannel {
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
}

const changes = 'rhizome:credentials:changed';
/**
 * A change announced while this process could not hear it (its LISTEN connection reopening) is still
 * picked up within this: each poll reads the generation only, a revoked key is refused within a second.
 */
const pollIntervalMs = 400;
/** The keys' last use (not announced) is read again every this many polls. */
const refreshEvery = 12;
const usagePersistIntervalMs = 1_000;
const conflictRetries = 5;

/**
 * The account, the session epoch, the API keys' hashes, their last use and the session secret in a
 * PostgreSQL server's `rhizome_system`, so every process of a deployment signs in the same operator and
 * every machine verifies the cookies another signed. Reads answer from the copy last read (requests verify
 * synchronously); each change is one conditional UPDATE on a generation number (a concurrent change
 * elsewhere makes it read again and reapply), announced on the pub/sub so the others read it at once.
 */
export class ServerAuthStore implements CredentialsStore, KeyUsageStore {
  private cached: Credentials | undefined;
  private generation = 0;
  private usage = new Map<string, string>();
  private readonly lastPersisted = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;
  private rereading: Promise<void> = Promise.resolve();
  private nextReread: Promise<Credentials | undefined> | undefined;
  private polls = 0;

  private constructor(
    private readonly sql: SqlRunner,
    private readonly channel: ChangeChannel,
    private readonly schema: string,
  ) {}

  /**
   * Opens the tables, creating them; a server without credentials yet takes the data directory's
   * (`importFrom`), and its session secret, so a deployment moving onto the server keeps its sign-in.
   */
  static async open(
    sql: SqlRunner,
    channel: ChangeChannel,
    options: { schema: string; importFrom: AuthFiles },
  ): Promise<{ store: ServerAuthStore; stores: AuthStores }> {
    const store = new ServerAuthStore(sql, channel, options.schema);
    const schema = `"${options.schema.replace(/"/g, '""')}"`;
    // One simple query runs on one connection: the lock queues processes creating the tables together.
    await sql.query(`BEGIN;
      SELECT pg_advisory_xact_lock(hashtext('rhizome:auth'));
      CREATE SCHEMA IF NOT EXISTS ${schema};
      CREATE TABLE IF NOT EXISTS ${schema}.auth_credentials (id integer PRIMARY KEY CHECK (id = 1), content text NOT NULL, generation bigint NOT NULL);
      CREATE TABLE IF NOT EXISTS ${schema}.auth_key_usage (key_id text PRIMARY KEY, last_used_at text NOT NULL);
      CREATE TABLE IF NOT EXISTS ${schema}.auth_secrets (name text PRIMARY KEY, value text NOT NULL);
      COMMIT;`);
    const importedCredentials = readIfExists(options.importFrom.credentialsFile);
    if (importedCredentials !== undefined)
      await sql.query(
        `INSERT INTO ${store.table('auth_credentials')} (id, content, generation) VALUES (1, $1, 1) ON CONFLICT DO NOTHING`,
        [JSON.stringify(parseCredentials(JSON.parse(importedCredentials)))],
      );
    const secret =
      readIfExists(path.join(options.importFrom.secretsDir, SecretName.session))?.trim() ||
      randomBytes(32).toString('base64url');
    await sql.query(`INSERT INTO ${store.table('auth_secrets')} (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
      SecretName.session,
      secret,
    ]);
    const [stored] = await sql.query(`SELECT value FROM ${store.table('auth_secrets')} WHERE name = $1`, [
      SecretName.session,
    ]);
    await store.refresh();
    store.unsubscribe = await channel.subscribe(changes, () => void store.refresh().catch(() => undefined));
    store.timer = setInterval(() => void store.poll().catch(() => undefined), pollIntervalMs).unref();
    return { store, stores: { credentials: store, usage: store, sessionSecret: String(stored.value) } };
  }

  private table(name: string): string {
    return `"${this.schema.replace(/"/g, '""')}".${name}`;
  }

  /**
   * The credentials as stored now, by a read that starts after this call: for a key this process has not
   * seen, which another process may have created a moment ago, before its announcement arrived. Callers
   * arriving while such a read runs share the next one, so unknown keys cost at most two reads at a time.
   */
  reread(): Promise<Credentials | undefined> {
    this.nextReread ??= this.rereading
      .catch(() => undefined)
      .then(() => {
        this.nextReread = undefined;
        this.rereading = this.refresh();
        return this.rereading;
      })
      .then(() => this.cached);
    return this.nextReread;
  }

  /** Reads the credentials again when their generation moved on; everything again every `refreshEvery`-th poll. */
  private async poll(): Promise<void> {
    this.polls = (this.polls + 1) % refreshEvery;
    if (this.polls === 0) return this.refresh();
    const [row] = await this.sql.query(`SELECT generation FROM ${this.table('auth_credentials')}`);
    if (Number(row?.generation ?? 0) !== this.generation) await this.refresh();
  }

  /** Reads the credentials and the keys' last use again. */
  async refresh(): Promise<void> {
    const [row] = await this.sql.query(`SELECT content, generation FROM ${this.table('auth_credentials')}`);
    // Reads overlap (an announcement, the poll, a reread): one that began before a change this process
    // already holds must not put the older credentials back.
    if (!row || Number(row.generation) >= this.generation) {
      this.cached = row ? parseCredentials(JSON.parse(String(row.content))) : undefined;
      this.generation = row ? Number(row.generation) : 0;
    }
    const usage = await this.sql.query(`SELECT key_id, last_used_at FROM ${this.table('auth_key_usage')}`);
    this.usage = new Map(usage.map((entry) => [String(entry.key_id), String(entry.last_used_at)]));
  }

  read(): Credentials | undefined {
    return this.cached;
  }

  async create(credentials: Credentials): Promise<void> {
    const inserted = await this.sql.query(
      `INSERT INTO ${this.table('auth_credentials')} (id, content, generation) VALUES (1, $1, 1) ON CONFLICT DO NOTHING RETURNING id`,
      [JSON.stringify(credentials)],
    );
    if (!inserted.length) {
      await this.refresh();
      throw new Conflict('The account is already set up');
    }
    this.cached = credentials;
    this.generation = 1;
    await this.announce();
  }

  async update(change: (current: Credentials) => Credentials): Promise<Credentials> {
    for (let attempt = 0; attempt < conflictRetries; attempt++) {
      const current = this.cached;
      if (!current) throw new Error('no credentials are stored');
      const next = change(structuredClone(current));
      const updated = await this.sql.query(
        `UPDATE ${this.table('auth_credentials')} SET content = $1, generation = generation + 1
         WHERE id = 1 AND generation = $2 RETURNING generation`,
        [JSON.stringify(next), this.generation],
      );
      if (updated.length) {
        this.cached = next;
        this.generation = Number(updated[0].generation);
        await this.announce();
        return next;
      }
      // Another process changed them since this one last read: apply the change to theirs.
      await this.refresh();
    }
    throw new Conflict('The credentials kept changing elsewhere: try again');
  }

  lastUsed(keyId: string): string | null {
    return this.usage.get(keyId) ?? null;
  }

  /** As the file's: the first use at once, later ones at most once a second per key and process, never failing the request. */
  recordUse(keyId: string, atMs = Date.now()): void {
    const previous = this.lastPersisted.get(keyId);
    if (previous !== undefined && atMs - previous < usagePersistIntervalMs) return;
    this.lastPersisted.set(keyId, atMs);
    const at = new Date(atMs).toISOString();
    this.usage.set(keyId, at);
    void this.sql
      .query(
        `INSERT INTO ${this.table('auth_key_usage')} (key_id, last_used_at) VALUES ($1, $2)
         ON CONFLICT (key_id) DO UPDATE SET last_used_at = excluded.last_used_at`,
        [keyId, at],
      )
      .catch(() => undefined);
  }

  forget(keyId: string): void {
    this.usage.delete(keyId);
    void this.sql
      .query(`DELETE FROM ${this.table('auth_key_usage')} WHERE key_id = $1`, [keyId])
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.unsubscribe?.();
  }

  private async announce(): Promise<void> {
    await this.channel.publish(changes, String(this.generation)).catch(() => undefined);
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
