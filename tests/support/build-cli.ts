import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Prebuilds the `rhizome` command line when one of its sources changed since the last build: the tests run it hundreds of times. */
export default function buildCli(): void {
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../../packages/cli/scripts/build.mjs')], {
    stdio: 'inherit',
  });
}
