import fs from 'node:fs';
import path from 'node:path';
import { CliFailure, ExitCode } from './exit-codes.ts';

/** What `rhizome add` was given, resolved: the files to upload (with the name they are shown by) and the URLs to import. */
export interface AddInputs {
  files: { path: string; name: string }[];
  urls: string[];
}

const isUrl = (input: string) => /^https?:\/\//i.test(input);
const hasGlob = (input: string) => /[*?[]/.test(input);

/** Every file under a directory, hidden ones (".git") left out, in name order. */
function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(full);
      return entry.isFile() ? [full] : [];
    });
}

/** A glob as a regular expression over '/'-separated paths: `**` any directories, `*` and `?` within one name, `[…]` a class. */
function globPattern(glob: string): RegExp {
  let pattern = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '*' && glob[index + 1] === '*') {
      pattern += glob[index + 2] === '/' ? '(?:.*/)?' : '.*';
      index += glob[index + 2] === '/' ? 2 : 1;
    } else if (char === '*') pattern += '[^/]*';
    else if (char === '?') pattern += '[^/]';
    else if (char === '[') {
      const end = glob.indexOf(']', index);
      pattern += end > index ? glob.slice(index, end + 1) : '\\[';
      index = end > index ? end : index;
    } else pattern += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

/** The files a quoted glob names (a shell expands unquoted ones itself), searched from its fixed leading directories. */
function expandGlob(glob: string): string[] {
  const normalised = glob.split(path.sep).join('/');
  const parts = normalised.split('/');
  const fixed = parts.slice(0, parts.findIndex(hasGlob));
  const base = fixed.length ? fixed.join('/') || '/' : '.';
  if (!fs.existsSync(base) || !fs.statSync(base).isDirectory()) return [];
  const matcher = globPattern(normalised.replace(/^\.\//, ''));
  return walk(base).filter((file) => matcher.test(file.split(path.sep).join('/').replace(/^\.\//, '')));
}

/** Resolves files, directories (recursively), globs and URLs; refuses before anything is uploaded when one names nothing. */
export function resolveInputs(inputs: readonly string[]): AddInputs {
  const files = new Map<string, string>();
  const urls: string[] = [];
  for (const input of inputs) {
    if (isUrl(input)) {
      urls.push(input);
      continue;
    }
    const stat = fs.statSync(input, { throwIfNoEntry: false });
    const found = stat?.isDirectory()
      ? walk(input)
      : stat?.isFile()
        ? [input]
        : hasGlob(input)
          ? expandGlob(input)
          : [];
    if (!found.length)
      throw new CliFailure(
        stat ? `'${input}' contains no files` : `'${input}' does not exist and matches no file`,
        ExitCode.notFound,
      );
    for (const file of found) files.set(path.resolve(file), path.basename(file));
  }
  return { files: [...files].map(([file, name]) => ({ path: file, name })), urls };
}
