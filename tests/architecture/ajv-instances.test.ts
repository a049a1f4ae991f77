import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/** The one place allowed to build a validator: it keeps one instance per purpose (`ajvFor`). */
const ajvHome = 'packages/contracts/src/ajv.ts';

/** Whether `text` constructs an ajv (`new Ajv(…)`, `new Ajv2020(…)`, `new ajv.Ajv(…)`). */
function constructsAjv(file: string, text: string): boolean {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const isAjvName = (name: ts.Node) => ts.isIdentifier(name) && /^Ajv\w*$/.test(name.text);
  const visit = (node: ts.Node): boolean =>
    (ts.isNewExpression(node) &&
      (isAjvName(node.expression) ||
        (ts.isPropertyAccessExpression(node.expression) && isAjvName(node.expression.name)))) ||
    ts.forEachChild(node, visit) === true;
  return visit(source);
}

/** The TypeScript files under `folders` (relative to the root), except `ajvHome`, that construct an ajv. */
async function ajvConstructions(folders: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const folder of folders) {
    for (const name of await readdir(path.join(root, folder), { recursive: true })) {
      const file = path.join(folder, name).split(path.sep).join('/');
      if (!/\.(ts|tsx|mts)$/.test(file) || file === ajvHome) continue;
      if (constructsAjv(file, await readFile(path.join(root, file), 'utf8'))) found.push(file);
    }
  }
  return found.sort();
}

async function sourceFolders(): Promise<string[]> {
  const folders: string[] = [];
  for (const group of ['packages', 'services']) {
    for (const entry of await readdir(path.join(root, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      if ((await readdir(path.join(root, group, entry.name))).includes('src'))
        folders.push(`${group}/${entry.name}/src`);
    }
  }
  return folders;
}

describe('ajv instances', () => {
  it(`no source file builds its own ajv: validators come from ${ajvHome}, one per purpose`, async () => {
    const folders = await sourceFolders();
    expect(folders).toContain('packages/core/src');
    expect(await ajvConstructions(folders)).toEqual([]);
  });

  it('is able to fail: a validator built outside ajv.ts is named', async () => {
    expect(await ajvConstructions(['tests/architecture/fixtures'])).toEqual([
      'tests/architecture/fixtures/builds-own-ajv.ts',
    ]);
  });
});
