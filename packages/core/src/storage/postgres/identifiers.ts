/** The schemas holding Rhizome databases are named `rhizome_<name>`. */
export const schemaPrefix = 'rhizome_';

export function schemaOf(databaseName: string): string {
  return `${schemaPrefix}${databaseName}`;
}

export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
