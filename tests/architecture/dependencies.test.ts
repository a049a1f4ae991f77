import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'node_modules/.bin/depcruise');
const execute = promisify(execFile);

interface Violation {
  rule: { name: string };
}

/**
 * The two passes of `pnpm depcheck`: every rule over every import, and the cycle rule over value imports only.
 * `pnpm depcheck` holds them over the whole tree (CI runs it before the tests); here each is shown able to fail.
 */
const allImports = '.dependency-cruiser.cjs';
const valueImports = '.dependency-cruiser.values.mjs';

/** The violations of a configuration's rules in `paths`, as dependency-cruiser reports them. */
async function violations(paths: string[], { config = allImports } = {}): Promise<Violation[]> {
  const args = [...paths, '--config', config, '--output-type', 'json', '--exclude', 'node_modules'];
  // depcruise exits non-zero when it finds violations; the JSON report is on stdout either way.
  const { stdout } = await execute(cli, args, { cwd: root, maxBuffer: 256 * 1024 * 1024 }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('the dependency rules', () => {
  it('are able to fail: a file reaching into another feature is reported', async () => {
    const found = await violations(['tests/architecture/fixtures/reaches-in.ts']);
    expect(found.map((violation) => violation.rule.name)).toContain('outside-core-uses-faces');
  }, 60_000);

  it('are able to fail: a value cycle beside a ring of type-only imports is reported by the values-only pass', async () => {
    const fixture = ['tests/architecture/fixtures/hidden-cycle'];
    // The pass over every import reports one cycle path per import, and here each runs through a type-only one.
    expect(await violations(fixture)).toEqual([]);
    const found = await violations(fixture, { config: valueImports });
    expect(found.map((violation) => violation.rule.name)).toContain('no-runtime-cycles');
  }, 60_000);
});

describe('the domain', () => {
  it('throws domain errors, never HTTP ones: no ApiError anywhere in core', async () => {
    const { stdout } = await execute('git', ['grep', '-l', 'ApiError', '--', 'packages/core/src'], { cwd: root }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
    );
    expect(stdout.split('\n').filter(Boolean)).toEqual([]);
  });
});
