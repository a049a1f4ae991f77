import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'tests/**/*.test.ts'],
    // One converted copy of the builtin word vectors for every test server of the run (see DataPaths.modelsDir).
    env: { RHIZOME_MODELS_DIR: path.join(os.tmpdir(), 'rhizome-test-models') },
    // Every test that runs `rhizome` runs the prebuilt command line, built here when a source changed.
    globalSetup: ['tests/support/build-cli.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
