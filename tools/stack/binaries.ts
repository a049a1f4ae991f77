import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
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

/**
 * What `load_module` needs for nginx's stream module: null when it is built in, else the path of the dynamic
 * module (Debian ships it as libnginx-mod-stream); throws when there is none.
 */
export function nginxStreamModule(nginxBin: string): string | null {
  const build = spawnSync(nginxBin, ['-V'], { encoding: 'utf8' }).stderr; // nginx -V prints to stderr
  if (/--with-stream(\s|$)/.test(build)) return null;
  const modulesDir = /--modules-path=(\S+)/.exec(build)?.[1] ?? '/usr/lib/nginx/modules';
  const module = path.join(modulesDir, 'ngx_stream_module.so');
  if (existsSync(module)) return module;
  throw new Error(`nginx has no stream module (${module} is missing); run tools/install-system-deps`);
}
