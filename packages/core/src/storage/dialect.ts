/** The SQL dialects a Rhizome database is stored in. */
export type Dialect = 'sqlite' | 'postgres';
