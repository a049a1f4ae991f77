import fs from 'node:fs';
import path from 'node:path';
import { BadInput, Forbidden, NotFound } from '@rhizome/contracts/errors';

/** The one directory whose files add_document may read by path: `<data_dir>/mcp/`. */
export function sandboxDir(dataDir: string): string {
  return path.join(dataDir, 'mcp');
}

/**
 * The real file a sandbox-relative path names. Refused: absolute paths, `..`, any dot-named segment
 * (hidden files and folders), links anywhere on the way (a link could lead out), and anything that is not
 * a regular file. The sandbox itself is created on first use.
 */
export async function sandboxFile(dataDir: string, relative: string): Promise<string> {
  const root = sandboxDir(dataDir);
  await fs.promises.mkdir(root, { recursive: true });
  if (path.isAbsolute(relative) || /^[a-zA-Z]:/.test(relative) || relative.includes('\0')) {
    throw new Forbidden(`'${relative}' is not inside the MCP sandbox: give a path relative to ${root}`, {
      field: 'path',
    });
  }
  const segments = relative.split(/[\\/]+/).filter((segment) => segment && segment !== '.');
  if (!segments.length) throw BadInput.field('path names no file', 'path');
  if (segments.some((segment) => segment === '..'))
    throw new Forbidden(`'${relative}' leaves the MCP sandbox (..)`, { field: 'path' });
  if (segments.some((segment) => segment.startsWith('.')))
    throw new Forbidden(`'${relative}' names a hidden file or folder, which add_document does not read`, {
      field: 'path',
    });
  let current = root;
  for (const segment of segments) {
    current = path.join(current, segment);
    const stat = await fs.promises.lstat(current).catch(() => null);
    if (!stat) throw NotFound.resource('Sandbox file', relative);
    if (stat.isSymbolicLink())
      throw new Forbidden(`'${relative}' goes through a link, which add_document does not follow`, { field: 'path' });
  }
  if (!(await fs.promises.stat(current)).isFile()) throw BadInput.field(`'${relative}' is not a regular file`, 'path');
  return current;
}
