/**
 * The test files the `postgres` project of vitest.config.ts runs again on PostgreSQL, every test server
 * on a database of one throw-away server: chosen for the operations of the API they reach per second
 * (the run prints how many of all it reached, and writes which file reaches what) and the statements
 * that differ between the dialects, within the suite's time budget.
 */
export const postgresFiles = [
  'tests/api/ops.test.ts',
  'tests/api/upstream-shapes-workflows.test.ts',
  'tests/api/upstream-shapes-tags-llm.test.ts',
  'tests/api/settings-resets-scoped.test.ts',
  'tests/api/graph.test.ts',
  'tests/api/queue.test.ts',
  'tests/api/node-tags.test.ts',
  'tests/api/quality.test.ts',
  'tests/api/chunk-attempts.test.ts',
  'tests/api/mcp-tool-list.test.ts',
  'tests/api/node-retype-mcp.test.ts',
  'tests/api/openai.test.ts',
  'tests/api/presets.test.ts',
  'tests/api/tls.test.ts',
  'tests/api/source-pause.test.ts',
  // `rhizome` against a server on PostgreSQL; cli-db.test.ts (databases as schemas) costs a minute more.
  'tests/api/cli-health.test.ts',
];

/**
 * Tests of those files that hold only on SQLite: they write the data directory's SQLite file behind the
 * server's back, or name the embedded queue the default runs on.
 */
export const sqliteOnlyTests = [
  'removes corrupt nodes and edges with their index entries and reports the counts',
  'GET /queue/health says the embedded queue answers',
];
