import type { Knex } from 'knex';

/**
 * Stable identities for CCX imports: the IRI a node, edge or source had in the package it came from
 * (`graph_nodes.ccx_iri` and `graph_edges.ccx_iri` exist since 0002; sources gain theirs), indexed so a
 * merge import finds what it imported before instead of creating it again.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('sources', (table) => {
    table.string('ccx_iri');
    table.index(['ccx_iri']);
  });
  await db.schema.alterTable('graph_nodes', (table) => {
    table.index(['ccx_iri']);
  });
  await db.schema.alterTable('graph_edges', (table) => {
    table.index(['ccx_iri']);
  });
}

export async function down(): Promise<void> {}
