import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { documentedOperations, type DocumentedOperation } from './openapi-operations.ts';
import { startPostgres } from './postgres.ts';
import type { RunPostgres } from './test-backend.ts';

/** Where the last PostgreSQL run's report of the operations it exercised is kept. */
export const routesReportFile = path.join(os.tmpdir(), 'rhizome-postgres-routes.json');

/**
 * The global setup of the `postgres` project: one throw-away PostgreSQL server for the whole run, whose
 * role may create a database per test server (tests/support/test-backend.ts). At the end it reports how
 * many of the API's operations the run's requests reached, and which it never did.
 */
export default async function postgresRun(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startPostgres();
  await postgres.superuser('ALTER ROLE rhizome CREATEDB');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-pg-run-'));
  const run: RunPostgres = {
    url: postgres.url,
    requestsFile: path.join(dir, 'requests.log'),
    openApiFile: path.join(dir, 'openapi.json'),
  };
  project.provide('rhizomePostgres', run);
  return async () => {
    try {
      report(run);
    } finally {
      await postgres.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** `/graph/nodes/{node_id}` as a pattern of one path; literal segments rank before parameters. */
function matcher(operation: DocumentedOperation) {
  const segments = operation.path.split('/');
  const pattern = new RegExp(
    `^${segments.map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`,
  );
  const literals = segments.filter((segment) => !segment.startsWith('{')).length;
  return { operation, pattern, literals };
}

function report(run: RunPostgres): void {
  if (!fs.existsSync(run.openApiFile)) return;
  const operations = documentedOperations(JSON.parse(fs.readFileSync(run.openApiFile, 'utf8')));
  const matchers = operations.map(matcher).sort((a, b) => b.literals - a.literals);
  const lines = fs.existsSync(run.requestsFile) ? fs.readFileSync(run.requestsFile, 'utf8').split('\n') : [];
  const reached = new Map<string, Set<number>>();
  const byFile = new Map<string, Set<string>>();
  for (const line of lines) {
    const [method, apiPath, status, testFile = 'unknown'] = line.split(' ');
    if (!status) continue;
    const hit = matchers.find((entry) => entry.operation.method === method && entry.pattern.test(apiPath));
    if (!hit) continue;
    const key = `${method} ${hit.operation.path}`;
    reached.set(key, (reached.get(key) ?? new Set()).add(Number(status)));
    byFile.set(testFile, (byFile.get(testFile) ?? new Set()).add(key));
  }
  // What each file reaches that no other file of the run does: the cost of leaving it out.
  const onlyIn = (file: string) =>
    [...byFile.get(file)!].filter((key) => [...byFile].every(([other, keys]) => other === file || !keys.has(key)));
  const all = operations.map((operation) => `${operation.method} ${operation.path}`);
  const missed = all.filter((key) => !reached.has(key));
  const onlyServerErrors = [...reached].filter(([, statuses]) => [...statuses].every((status) => status >= 500));
  fs.writeFileSync(
    routesReportFile,
    JSON.stringify(
      {
        operations: all.length,
        reached: reached.size,
        missed,
        onlyServerErrors: onlyServerErrors.map(([key]) => key),
        files: Object.fromEntries(
          [...byFile].map(([file, keys]) => [file, { reached: keys.size, only: onlyIn(file) }]),
        ),
        statuses: Object.fromEntries([...reached].map(([key, statuses]) => [key, [...statuses].sort()])),
      },
      null,
      2,
    ),
  );
  const shown = 20;
  console.log(
    `\nPostgreSQL run: ${reached.size} of ${all.length} API operations exercised (report: ${routesReportFile})` +
      (missed.length
        ? `\n  never reached (${missed.length}): ${missed.slice(0, shown).join(', ')}${missed.length > shown ? ', …' : ''}`
        : '') +
      (onlyServerErrors.length ? `\n  only 5xx: ${onlyServerErrors.map(([key]) => key).join(', ')}` : ''),
  );
}
