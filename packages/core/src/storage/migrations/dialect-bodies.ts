import type { Dialect } from '../dialect.ts';
import { revisionOf, type Migration, type MigrationBody } from './index.ts';

/**
 * The revisions written for SQLite alone, before PostgreSQL was a backend: PostgreSQL records them as
 * applied, and the body of the next one creates the schema they made.
 */
const sqliteOnlyThrough = '0018';

const recordedOnly: MigrationBody = {
  async up() {},
  async down() {},
};

/**
 * What a revision runs in a dialect: its own body, or on PostgreSQL the body it gives for PostgreSQL.
 * Revisions after 0019 written with knex's schema builder need no PostgreSQL body: knex speaks both.
 */
export function bodyFor(migration: Migration, dialect: Dialect): MigrationBody {
  if (dialect === 'sqlite') return migration;
  if (migration.postgres) return migration.postgres;
  return revisionOf(migration.name) <= sqliteOnlyThrough ? recordedOnly : migration;
}
