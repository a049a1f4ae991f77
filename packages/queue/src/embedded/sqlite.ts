import fs from 'node:fs';
import path from 'node:path';
import sqlite3 from 'sqlite3';

type Params = unknown[];

/** A promise face over one sqlite3 connection with cached prepared statements. */
export class SqliteFile {
  private readonly statements = new Map<string, sqlite3.Statement>();

  private constructor(private readonly db: sqlite3.Database) {}

  static async open(file: string): Promise<SqliteFile> {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const opened = new sqlite3.Database(file, (error) => (error ? reject(error) : resolve(opened)));
    });
    const connection = new SqliteFile(db);
    await connection.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 10000;');
    return connection;
  }

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.db.exec(sql, (error) => (error ? reject(error) : resolve())));
  }

  all<T>(sql: string, params: Params = []): Promise<T[]> {
    return new Promise((resolve, reject) =>
      this.statement(sql).all(params, (error: Error | null, rows: T[]) => (error ? reject(error) : resolve(rows))),
    );
  }

  async get<T>(sql: string, params: Params = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  /** Runs a write; resolves with the number of changed rows. */
  run(sql: string, params: Params = []): Promise<number> {
    return new Promise((resolve, reject) =>
      this.statement(sql).run(params, function (this: sqlite3.RunResult, error: Error | null) {
        if (error) reject(error);
        else resolve(this.changes);
      }),
    );
  }

  async close(): Promise<void> {
    for (const statement of this.statements.values()) await new Promise((resolve) => statement.finalize(resolve));
    this.statements.clear();
    await new Promise<void>((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }

  private statement(sql: string): sqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
