import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { postgresFiles, sqliteOnlyTests } from './tests/postgres-files.ts';

// One converted copy of the builtin word vectors for every test server of the run (see DataPaths.modelsDir).
const env = { RHIZOME_MODELS_DIR: path.join(os.tmpdir(), 'rhizome-test-models') };
// Every test that runs `rhizome` runs the prebuilt command line, built here when a source changed.
const buildCli = 'tests/support/build-cli.ts';

/**
 * The PostgreSQL run. Its tests that hold only on SQLite are left out by name: vitest reads
 * `testNamePattern` of a project too, though its project type does not list it.
 */
const postgresProject = {
  name: 'postgres',
  // RHIZOME_TEST_BACKEND=postgres in the environment opens the project to any test file, to try one on PostgreSQL.
  include: process.env.RHIZOME_TEST_BACKEND === 'postgres' ? ['tests/**/*.test.ts'] : postgresFiles,
  testNamePattern: new RegExp(
    `^(?!.*(?:${sqliteOnlyTests.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')}))`,
  ),
  env: { ...env, RHIZOME_TEST_BACKEND: 'postgres' },
  globalSetup: [buildCli, 'tests/support/postgres-run.ts'],
};

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    // A worker runs its test files one after another in one module graph: most files start a whole server
    // from its sources, and loading them again for each file cost a third of the suite's time. Test files
    // leave nothing behind them (servers stopped, environment restored).
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'tests/**/*.test.ts'],
          env: { ...env, RHIZOME_TEST_BACKEND: 'sqlite' },
          globalSetup: [buildCli],
        },
      },
      // The API, MCP, OpenAI and CLI tests that reach every operation, again with every test server on a
      // database of one throw-away PostgreSQL server (tests/support/test-backend.ts).
      { extends: true, test: postgresProject },
    ],
  },
});
