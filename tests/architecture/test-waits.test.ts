import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
/** The one way tests wait (`sleep`, `until`, `waitForTask`); the only file allowed to build a sleep. */
const waitHome = 'tests/support/wait.ts';
const fixtures = 'tests/architecture/fixtures';

type Kind = 'promised timer' | 'timers/promises' | 'polling loop' | 'expect.poll' | 'vi.waitFor' | 'vi.waitUntil';

/** vitest's own ways to poll, a second `until` beside the one in the wait home. */
const vitestWaits = new Set<Kind>(['expect.poll', 'vi.waitFor', 'vi.waitUntil']);

/**
 * The ways a test file waits on its own:
 * - `promised timer`: a `new Promise` resolved by a `setTimeout` (a sleep of its own);
 * - `timers/promises`: the promised timers of node;
 * - `polling loop`: a `for`, `while` or `do` loop that sleeps between its turns (an `until` of its own);
 *   a `for…of` over given cases that pauses in each is not a poll;
 * - `expect.poll`, `vi.waitFor`, `vi.waitUntil`: vitest's polling, called or passed on.
 */
function adHocWaits(file: string, text: string): Kind[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Kind[] = [];
  const isCallTo = (node: ts.Node, name: string): node is ts.CallExpression =>
    ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name;
  const contains = (node: ts.Node, test: (child: ts.Node) => boolean): boolean =>
    test(node) || ts.forEachChild(node, (child) => contains(child, test) || undefined) === true;
  const isPromisedTimer = (node: ts.Node): boolean => {
    if (!ts.isNewExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'Promise')
      return false;
    const executor = node.arguments?.[0];
    if (!executor || !(ts.isArrowFunction(executor) || ts.isFunctionExpression(executor))) return false;
    const resolve = executor.parameters[0]?.name;
    if (!resolve || !ts.isIdentifier(resolve)) return false;
    return contains(
      executor.body,
      (child) =>
        isCallTo(child, 'setTimeout') &&
        child.arguments.length > 0 &&
        contains(child.arguments[0], (inner) => ts.isIdentifier(inner) && inner.text === resolve.text),
    );
  };
  /** Whether a loop's own body (not functions declared in it) awaits a sleep. */
  const sleepsInBody = (body: ts.Node): boolean => {
    const visit = (node: ts.Node): boolean => {
      if (ts.isFunctionLike(node)) return false;
      if (ts.isAwaitExpression(node) && (isCallTo(node.expression, 'sleep') || isPromisedTimer(node.expression)))
        return true;
      return ts.forEachChild(node, (child) => visit(child) || undefined) === true;
    };
    return visit(body);
  };
  const visit = (node: ts.Node): void => {
    if (isPromisedTimer(node)) found.push('promised timer');
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const reference = `${node.expression.text}.${node.name.text}` as Kind;
      if (vitestWaits.has(reference)) found.push(reference);
    }
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      /^(node:)?timers\/promises$/.test(node.moduleSpecifier.text)
    )
      found.push('timers/promises');
    if (
      (ts.isForStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) &&
      sleepsInBody(node.statement)
    )
      found.push('polling loop');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Waits that are not a test waiting for something: the timer or the loop is the behaviour under test or
 * the work a fake does. `count` (default 1) is how often the file does it; an entry that no longer occurs
 * fails like a new wait.
 */
const allowed: { file: string; kind: Kind; count?: number; reason: string }[] = [
  {
    file: 'packages/queue/test/support/test-operations.ts',
    kind: 'polling loop',
    reason: 'the body of a task that runs until it is cancelled: the loop is the work a worker is tested on',
  },
  {
    file: 'tests/support/blocking-operation.ts',
    kind: 'polling loop',
    reason: 'an operation that holds its task until the test releases it: the loop is the task body',
  },
  {
    file: 'packages/queue/test/store.contract.test.ts',
    kind: 'polling loop',
    count: 2,
    reason: 'handlers that run until they are cancelled: how cancellation reaches a running task is tested',
  },
  {
    file: 'packages/core/test/sources/indexing-overlap.test.ts',
    kind: 'polling loop',
    reason: 'samples the progress counters while indexing runs: the samples are the measurement',
  },
  {
    file: 'packages/queue/test/redis-store.test.ts',
    kind: 'polling loop',
    reason: 'five measured wake-ups, each after a pause that lets the consumer block first',
  },
  {
    file: 'tests/support/fakes/http-fake.ts',
    kind: 'promised timer',
    reason: 'a fake server delaying its answer, cut short when the client disconnects',
  },
];

/** Every ad-hoc wait in the TypeScript files under `folders`, as `<file>: <kind>`, once per occurrence. */
async function waitsIn(folders: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const folder of folders) {
    for (const name of await readdir(path.join(root, folder), { recursive: true })) {
      const file = path.join(folder, name).split(path.sep).join('/');
      if (!/\.(ts|tsx|mts)$/.test(file) || file === waitHome || file.includes('node_modules/')) continue;
      if (folder !== fixtures && file.startsWith(`${fixtures}/`)) continue;
      for (const kind of adHocWaits(file, await readFile(path.join(root, file), 'utf8')))
        found.push(`${file}: ${kind}`);
    }
  }
  return found.sort();
}

async function testFolders(): Promise<string[]> {
  const folders = ['tests'];
  for (const group of ['packages', 'services']) {
    for (const entry of await readdir(path.join(root, group), { withFileTypes: true })) {
      if (entry.isDirectory() && (await readdir(path.join(root, group, entry.name))).includes('test'))
        folders.push(`${group}/${entry.name}/test`);
    }
  }
  return folders;
}

describe('test waits', () => {
  it(`tests wait through ${waitHome} only, except the allowed uses`, async () => {
    const folders = await testFolders();
    expect(folders).toContain('packages/core/test');
    const expected = allowed
      .flatMap(({ file, kind, count = 1 }) => Array<string>(count).fill(`${file}: ${kind}`))
      .sort();
    expect(await waitsIn(folders)).toEqual(expected);
  });

  it('is able to fail: a sleep of its own, the promised timers, a polling loop and vitest polling are each named', async () => {
    expect(await waitsIn([fixtures])).toEqual([
      `${fixtures}/waits-on-its-own.ts: expect.poll`,
      `${fixtures}/waits-on-its-own.ts: polling loop`,
      `${fixtures}/waits-on-its-own.ts: promised timer`,
      `${fixtures}/waits-on-its-own.ts: timers/promises`,
      `${fixtures}/waits-on-its-own.ts: vi.waitFor`,
      `${fixtures}/waits-on-its-own.ts: vi.waitUntil`,
    ]);
  });
});
