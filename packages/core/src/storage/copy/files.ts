import fs from 'node:fs';
import path from 'node:path';

/** What a database's directory holds beside its rows: uploaded originals, and the vector index caches. */
export interface FileTally {
  files: number;
  bytes: number;
}

/** Uploads in flight land in `sources/.incoming`; they belong to no source yet. */
const inFlight = '.incoming';

/** Every file under `dir` (relative paths), `.incoming` left out; none when it does not exist. */
export function filesUnder(dir: string): { relative: string; bytes: number }[] {
  if (!fs.existsSync(dir)) return [];
  const found: { relative: string; bytes: number }[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (relative === '' && entry.name === inFlight) continue;
        walk(child);
      } else if (entry.isFile()) found.push({ relative: child, bytes: fs.statSync(path.join(dir, child)).size });
    }
  };
  walk('');
  return found.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

export function tally(files: { bytes: number }[]): FileTally {
  return { files: files.length, bytes: files.reduce((sum, file) => sum + file.bytes, 0) };
}

/**
 * Copies the files under `from` to `to` (which must not exist yet). Originals are written once and never
 * changed, so `link` hard-links them where both are on one file system (a copy elsewhere); the vector
 * caches are copied, since their journals grow in place.
 */
export function copyTree(
  from: string,
  to: string,
  link: boolean,
  onFile: (bytes: number) => void = () => undefined,
): FileTally {
  fs.mkdirSync(to, { recursive: true });
  const files = filesUnder(from);
  for (const file of files) {
    const target = path.join(to, file.relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    let linked = false;
    if (link) {
      try {
        fs.linkSync(path.join(from, file.relative), target);
        linked = true;
      } catch {
        linked = false;
      }
    }
    if (!linked) fs.copyFileSync(path.join(from, file.relative), target);
    onFile(file.bytes);
  }
  return tally(files);
}

/** Puts `staged` where `live` is, the old one (if any) removed once the new one is in place. */
export function swapIn(staged: string, live: string, suffix: string): void {
  const old = `${live}.replaced-${suffix}`;
  if (fs.existsSync(live)) fs.renameSync(live, old);
  fs.renameSync(staged, live);
  fs.rmSync(old, { recursive: true, force: true });
}
