import ts from 'typescript';

export type AccessKind = 'read' | 'write';

export interface TableAccess {
  table: string;
  kind: AccessKind;
  line: number;
}

const writingMethods = new Set(['insert', 'update', 'delete', 'del', 'truncate', 'increment', 'decrement', 'upsert']);
/** What the code base calls a knex connection or transaction, called as a query builder: `db('t')`, `this.trx('t')`. */
const handles = new Set(['db', 'trx', 'knex']);
const joiningMethods = new Set(['join', 'leftJoin', 'rightJoin', 'innerJoin', 'from', 'fromRaw', 'table']);
const sqlWrite =
  /\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+([a-z_][a-z0-9_]*)/gi;
const sqlRead = /\b(?:FROM|JOIN)\s+([a-z_][a-z0-9_]*)/gi;

/** `'graph_nodes as n'` → `graph_nodes`. */
const tableOf = (text: string) => /^([a-z_][a-z0-9_]*)(?:\s+as\s+\w+)?$/i.exec(text.trim())?.[1];

/** Whether the query builder this call starts goes on to write (`.insert`, `.update`, `.delete` … in its chain). */
function chainWrites(call: ts.Node): boolean {
  for (let node: ts.Node = call; ;) {
    const parent = node.parent;
    if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
      if (writingMethods.has(parent.name.text)) return true;
      node = parent;
    } else if (ts.isCallExpression(parent) && parent.expression === node) node = parent;
    else if (ts.isAwaitExpression(parent) || ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent))
      node = parent;
    else return false;
  }
}

const calleeName = (call: ts.CallExpression) =>
  ts.isIdentifier(call.expression)
    ? call.expression.text
    : ts.isPropertyAccessExpression(call.expression)
      ? call.expression.name.text
      : '';

/**
 * The tables a TypeScript file reaches through knex or SQL: a table given to a query builder (`db('t')`,
 * `.join('t as x', …)`), to `insertRows(db, 't', …)`, or named in SQL text after INSERT INTO, UPDATE,
 * DELETE FROM (writes) or FROM, JOIN (reads). Table names built at run time are not seen.
 */
export function tableAccesses(fileName: string, text: string, tables: ReadonlySet<string>): TableAccess[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: TableAccess[] = [];
  const add = (table: string | undefined, kind: AccessKind, node: ts.Node) => {
    if (table && tables.has(table))
      found.push({ table, kind, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.arguments.length) {
      const [first, second] = node.arguments;
      const name = calleeName(node);
      if (name === 'insertRows' && second && ts.isStringLiteralLike(second)) add(second.text, 'write', second);
      else if (ts.isStringLiteralLike(first)) {
        if (ts.isPropertyAccessExpression(node.expression) && joiningMethods.has(name))
          add(tableOf(first.text), 'read', first);
        else if (name === 'into') add(tableOf(first.text), 'write', first);
        else if (handles.has(name)) add(tableOf(first.text), chainWrites(node) ? 'write' : 'read', first);
      }
    }
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const sql = node.text;
      const written = new Set<number>();
      for (const match of sql.matchAll(sqlWrite)) {
        add(match[1], 'write', node);
        written.add(match.index + match[0].length - match[1].length);
      }
      for (const match of sql.matchAll(sqlRead))
        if (!written.has(match.index + match[0].length - match[1].length)) add(match[1], 'read', node);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Knex calls that take SQL text: `db.raw(…)`, `.whereRaw(…)`, `.joinRaw(…)` and the other `…Raw` builders. */
const isRawCall = (name: string) => name === 'raw' || /^[a-z]+Raw$/.test(name);

/**
 * Every query a file builds, whatever table it names: a knex handle called as a query builder (`db(x)`,
 * `trx(x)`, `knex(x)`, even with a table name computed at run time) and every raw SQL call. An adapter
 * (services/, the CLI) must build none: it calls a module's service.
 */
export function queryCalls(fileName: string, text: string): { call: string; line: number }[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { call: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.arguments.length) {
      const name = calleeName(node);
      const builder = ts.isIdentifier(node.expression) || ts.isPropertyAccessExpression(node.expression);
      if (builder && (handles.has(name) || (ts.isPropertyAccessExpression(node.expression) && isRawCall(name))))
        found.push({ call: name, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
