/** The schemas holding Rhizome databases are named `rhizome_<name>`. */
export const schemaPrefix = 'rhizome_';

/**
 * The schema of what every process of a deployment shares beside the databases (pause flags, the model
 * call log, the queue, settings, credentials): named like a database's so one prefix covers Rhizome's
 * schemas, which is why no database may be called `system` on PostgreSQL.
 */
export const systemSchema = `${schemaPrefix}system`;

export function schemaOf(databaseName: string): string {
  return `${schemaPrefix}${databaseName}`;
}

export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
