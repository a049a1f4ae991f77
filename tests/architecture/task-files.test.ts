import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const core = path.join(root, 'packages/core/src');

/**
 * Whether `text` registers a task handler: a `.define(name, options, handler)` call on a registrar.
 * Declaring a lane without a handler (`define(name, options)`, as the platform does before a worker
 * registers the handlers) is not a registration.
 */
function registersHandlers(file: string, text: string): boolean {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): boolean =>
    (ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'define' &&
      node.arguments.length >= 3) ||
    ts.forEachChild(node, visit) === true;
  return visit(source);
}

/** The files among `files` (relative to `folder`) that register task handlers but are not named `tasks.ts` or `<what>-tasks.ts`. */
async function misnamedTaskFiles(folder: string, files: string[]): Promise<string[]> {
  const misnamed: string[] = [];
  for (const file of files.filter((name) => name.endsWith('.ts')).sort()) {
    const named = /(^|[/-])tasks\.ts$/.test(file.split(path.sep).join('/'));
    if (!named && registersHandlers(file, await readFile(path.join(folder, file), 'utf8'))) misnamed.push(file);
  }
  return misnamed;
}

describe('task files', () => {
  it('every core file that registers task handlers is a tasks.ts or <what>-tasks.ts', async () => {
    expect(await misnamedTaskFiles(core, await readdir(core, { recursive: true }))).toEqual([]);
  });

  it('is able to fail: a handler registered in another file is named', async () => {
    const fixtures = path.join(root, 'tests/architecture/fixtures');
    expect(await misnamedTaskFiles(fixtures, await readdir(fixtures))).toEqual(['registers-handlers.ts']);
  });
});
