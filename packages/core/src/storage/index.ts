export { backupSqlite, openSqlite, type Db } from './connection.ts';
export { insertRows } from './insert-rows.ts';
export { createTables } from './create-tables.ts';
export { revisionOf, shippedMigrations, type Migration } from './migrations/index.ts';
export { Migrator, restoreSqliteFile, type ApplyResult } from './migrator.ts';
export { decodeVector, encodeVector } from './vector-blob.ts';
export { countRows } from './count-rows.ts';
export {
  postgresPreviewWarning,
  postgresServerOptions,
  reachPostgres,
  redactedUrl,
  storageBackendRefusal,
  type PostgresReach,
} from './postgres-check.ts';
export { postgresBackups, sqliteBackups, type DatabaseBackups } from './backups.ts';
export {
  caselessLike,
  containingPattern,
  databaseKey,
  dialectOf,
  freshRowids,
  insertIgnoringDuplicates,
  jsonArrayValues,
  perDialect,
  selectRows,
  type Dialect,
} from './dialect.ts';
export { PostgresServer, type PostgresServerOptions } from './postgres/server.ts';
export { quoteIdentifier, schemaOf, schemaPrefix, systemSchema } from './postgres/identifiers.ts';
export { dumpSchema, restoreSchema } from './postgres/schema-dump.ts';
export { copyDatabases, CopyRefusal, type CopyProgress, type CopyReport, type CopyRequest } from './copy/index.ts';
