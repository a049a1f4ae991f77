import pg from 'pg';
import { describeError } from '@rhizome/contracts/errors';
import type { PostgresServerOptions } from './postgres/server.ts';

/** What a PostgreSQL server at a URL answered: who and where, or one line saying what is wrong and how to fix it. */
export type PostgresReach =
  | { ok: true; server: string; database: string; user: string; canCreateSchemas: boolean }
  | { ok: false; problem: string };

/** The URL with its password hidden, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the given URL';
  }
}

/** The PostgreSQL error codes and socket errors a user meets, as what to do. */
function problemOf(error: unknown, url: URL, timeoutMs: number): string {
  const where = `${url.hostname}:${url.port || 5432}`;
  const database = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username);
  const user = decodeURIComponent(url.username) || 'the current user';
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return `no PostgreSQL server answers at ${where} (connection refused): start it, or correct the host and port`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host ${url.hostname} is not known: correct the host in the URL`;
    case '28P01':
      return `PostgreSQL refused the password of ${user}: correct the password in the URL`;
    case '28000':
      return `PostgreSQL does not let ${user} connect from here (pg_hba.conf): allow it, or connect as another role`;
    case '3D000':
      return `the database '${database}' does not exist on ${where}: create it (createdb ${database}) or name another`;
    case '42501':
      return `${user} may not use the database '${database}': grant it CONNECT and CREATE`;
  }
  if (/timeout/i.test(describeError(error)))
    return `the PostgreSQL server at ${where} did not answer within ${Math.round(timeoutMs / 1000)} s`;
  return `PostgreSQL at ${where} could not be reached: ${describeError(error)}`;
}

/**
 * Connects once to the server a `postgres://` URL names (its `?sslmode=` honoured by the driver) and asks
 * who it is and whether the role may create schemas in its database, which one schema per Rhizome
 * database needs.
 */
export async function reachPostgres(url: string, timeoutMs = 5_000): Promise<PostgresReach> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {
      ok: false,
      problem: 'RHIZOME_DATABASE_URL is not a URL: give it as postgres://user:password@host:5432/database',
    };
  }
  if (!/^postgres(?:ql)?:$/.test(parsed.protocol))
    return { ok: false, problem: `RHIZOME_DATABASE_URL must start with postgres://, not ${parsed.protocol}//` };
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
  });
  // A server that drops the connection later reports it here; the check has its answer by then.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ server: string; database: string; user: string; create: boolean }>(
      `SELECT current_setting('server_version') AS server, current_database() AS database, current_user AS user,
              has_database_privilege(current_database(), 'CREATE') AS create`,
    );
    const [row] = rows;
    return { ok: true, server: row.server, database: row.database, user: row.user, canCreateSchemas: row.create };
  } catch (error) {
    return { ok: false, problem: problemOf(error, parsed, timeoutMs) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The pool's settings, which cannot live in the settings the server holds: they are needed to reach it. */
const connectionVariables = {
  RHIZOME_DATABASE_POOL_MAX: { option: 'maxConnections', min: 1, max: 1000 },
  RHIZOME_DATABASE_STATEMENT_TIMEOUT_MS: { option: 'statementTimeoutMs', min: 0, max: 86_400_000 },
} as const;

/**
 * The connection pool's size and statement timeout from RHIZOME_DATABASE_POOL_MAX and
 * RHIZOME_DATABASE_STATEMENT_TIMEOUT_MS (0: none); SSL is the URL's `?sslmode=`. Throws one line for a bad value.
 */
export function postgresServerOptions(env: NodeJS.ProcessEnv = process.env): PostgresServerOptions {
  const options: PostgresServerOptions = {};
  for (const [variable, { option, min, max }] of Object.entries(connectionVariables)) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`${variable} must be a whole number from ${min} to ${max}, not '${raw}'`);
    options[option] = value || undefined;
  }
  return options;
}

/**
 * Whether a service may start with these variables, and the one line that stops it when not: a set
 * RHIZOME_DATABASE_URL must reach a server whose role may create schemas, with valid pool settings; and
 * while some modules' statements are SQLite's only, the operator must say they want the preview
 * (RHIZOME_POSTGRES_PREVIEW=1). Null: start, on SQLite when no URL is set.
 */
export async function storageBackendRefusal(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const url = env.RHIZOME_DATABASE_URL;
  if (!url) return null;
  try {
    postgresServerOptions(env);
  } catch (error) {
    return (error as Error).message;
  }
  if (env.RHIZOME_POSTGRES_PREVIEW !== '1')
    return `RHIZOME_DATABASE_URL is set (${redactedUrl(url)}), but the PostgreSQL backend is a preview in this version (some features still run only on SQLite): set RHIZOME_POSTGRES_PREVIEW=1 to start on it anyway, or unset the URL`;
  const reach = await reachPostgres(url);
  if (!reach.ok) return reach.problem;
  if (!reach.canCreateSchemas)
    return `${reach.user} may not create schemas in the database '${reach.database}': grant it CREATE (GRANT CREATE ON DATABASE ${reach.database} TO ${reach.user})`;
  return null;
}

/** The warning a service logs once when it starts on PostgreSQL. */
export const postgresPreviewWarning =
  'storage: the PostgreSQL backend is a preview: some features still run only on SQLite and fail on this server';
