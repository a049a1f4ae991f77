import { accessSync, constants } from 'node:fs';
import path from 'node:path';

// Debian keeps nginx in /usr/sbin, which an unprivileged PATH often lacks.
const extraDirs = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** The absolute path of the first of `names` found on PATH (or an sbin dir); throws naming the install script. */
export function requireBinary(...names: string[]): string {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...extraDirs];
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here; keep looking
      }
    }
  }
  throw new Error(`${names.join(' or ')} not found; run tools/install-system-deps`);
}
