import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoDir = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const deployDir = path.join(repoDir, 'deploy');

/**
 * Fills `{{NAME}}` placeholders of a template under deploy/. Every placeholder needs a value and every value
 * must be used, so a template and its renderer cannot drift apart silently.
 */
export async function renderTemplate(relativePath: string, values: Record<string, string>): Promise<string> {
  const template = await fs.readFile(path.join(deployDir, relativePath), 'utf8');
  const used = new Set<string>();
  const rendered = template.replace(/\{\{([A-Z0-9_]+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${relativePath}: no value for {{${name}}}`);
    used.add(name);
    return value;
  });
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length > 0) throw new Error(`${relativePath}: unused values ${unused.join(', ')}`);
  return rendered;
}

/**
 * Values land quoted in nginx, supervisord and redis configs; these characters would need a different
 * escape in each (or start interpolation: `$` in nginx, `%` in supervisord), so they are refused outright.
 */
export function configSafe(label: string, value: string): string {
  if (/["'\\$%;{}\p{Cc}]/u.test(value))
    throw new Error(`${label} contains characters not allowed in generated configs: ${value}`);
  return value;
}
