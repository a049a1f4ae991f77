// Whether dist/ holds a build of the command line that is newer than every source it was built from.
import fs from 'node:fs';
import path from 'node:path';

/** The prebuilt entry file, or null when there is none or a source changed (or vanished) since it was built. */
export function prebuiltEntry(dist) {
  const entry = path.join(dist, 'main.js');
  let builtAt;
  let inputs;
  try {
    builtAt = fs.statSync(entry).mtimeMs;
    inputs = JSON.parse(fs.readFileSync(path.join(dist, 'inputs.json'), 'utf8'));
  } catch {
    return null;
  }
  for (const input of inputs) {
    const stat = fs.statSync(input, { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs > builtAt) return null;
  }
  return entry;
}
