import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphSteps } from './parity/graph-steps.ts';
import { reachedOperations, runStep, type Outcome, type Side, type Step } from './parity/pair.ts';
import { platformSteps } from './parity/platform-steps.ts';
import { sourceSteps } from './parity/scenario.ts';
import { sweepSteps } from './parity/sweep.ts';
import { documentedOperations } from '../support/openapi-operations.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { testBackend } from '../support/test-backend.ts';

/**
 * One differential run over the API: a server on SQLite and one on a throw-away PostgreSQL go through
 * the same scenario, and every answer is compared — the same status, never a 5xx, the same shape, and
 * for deterministic reads the same content once ids, times and sizes are set aside. The run counts
 * the documented operations it reached and those answered 2xx; fewer than the floors fails it.
 */

const operationsFloor = 284;
/** Of those, how many at least one valid request of the scenario answers with a 2xx on both (245 when written). */
const succeededFloor = 240;

// Addresses nothing listens on: a request that gets as far as an outside service fails fast, on this machine.
const closedUrl = 'http://127.0.0.1:9';
const env = {
  RHIZOME_SETTINGS__LOCAL_AUTH__LOGIN_MAX_ATTEMPTS: '100000',
  REGISTRY_URL: closedUrl,
  RHIZOME_SETTINGS__LLM__OPENAI_BASE_URL: `${closedUrl}/v1`,
  RHIZOME_SETTINGS__LLM__ANTHROPIC_BASE_URL: `${closedUrl}/v1`,
  RHIZOME_SETTINGS__LLM__GEMINI_BASE_URL: `${closedUrl}/v1`,
};

function signIn(username: string): Step {
  return {
    method: 'POST',
    path: '/auth/login',
    body: { username, password: 'another horse battery' },
    expect: 200,
    after: async (side, answer) => {
      if (answer.cookie) side.cookie = answer.cookie;
    },
  };
}

/** Run after the sweep, in this order: they delete what the scenario made, reset, replace or sign out. */
const closingSteps: Step[] = [
  { method: 'DELETE', path: '/sources/{held}/processing' },
  { method: 'DELETE', path: '/sources/{held}/extraction' },
  { method: 'DELETE', path: '/nodes/tags/{ntag}' },
  { method: 'DELETE', path: '/nodes/{univac}/tags/{ntag}' },
  { method: 'DELETE', path: '/edges/{edge}', expect: 204 },
  { method: 'DELETE', path: '/nodes/{univac}' },
  { method: 'DELETE', path: '/nodes/{grace}' },
  { method: 'DELETE', path: '/templates/{machine}' },
  { method: 'DELETE', path: '/sources/tags/{stag}' },
  { method: 'DELETE', path: '/sources/{held}' },
  { method: 'DELETE', path: '/sources/{curie}' },
  { method: 'DELETE', path: '/chats/{chat}' },
  { method: 'DELETE', path: '/chats' },
  { method: 'DELETE', path: '/workflows/{workflow}' },
  { method: 'DELETE', path: '/queue/tasks/{task}' },
  { method: 'DELETE', path: '/queue/tasks/history' },
  { method: 'DELETE', path: '/llm/tasks/{llmtask}' },
  { method: 'DELETE', path: '/llm/tasks' },
  { method: 'DELETE', path: '/llm/stats' },
  { method: 'DELETE', path: '/llm/semaphore' },
  { method: 'DELETE', path: '/system/processing/events' },
  { method: 'POST', path: '/settings/reset/chats' },
  { method: 'POST', path: '/settings/reset/workflows' },
  { method: 'POST', path: '/settings/reset/queue' },
  { method: 'POST', path: '/settings/reset/source_processing' },
  { method: 'POST', path: '/settings/reset/knowledge' },
  { method: 'POST', path: '/settings/reset/all', body: { confirmation: 'CONFIRM' } },
  { method: 'POST', path: '/settings/reset' },
  { method: 'GET', path: '/upgrade/pending' },
  { method: 'POST', path: '/upgrade/apply' },
  { method: 'POST', path: '/upgrade/rollback' },
  { method: 'POST', path: '/backup/{backup}/restore' },
  { method: 'DELETE', path: '/backup/{backup}' },
  { method: 'DELETE', path: '/queue/tasks' },
  // Changing the password or the name ends the session: each is followed by a new login.
  {
    method: 'POST',
    path: '/auth/password',
    body: { old_password: 'correct horse battery', new_password: 'another horse battery' },
  },
  signIn('operator'),
  { method: 'POST', path: '/auth/username', body: { password: 'another horse battery', new_username: 'keeper' } },
  signIn('keeper'),
  { method: 'DELETE', path: '/mcp', compare: 'status' },
  { method: 'POST', path: '/auth/logout' },
];

/** Whether a filled path is one of the documented path's (for the report's statuses only). */
function matches(documented: string, url: string): boolean {
  const pattern = documented.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(url.split('?')[0]);
}

let postgres: TestPostgres;
let servers: TestServer[] = [];
let sides: [Side, Side];
let openApi: unknown;

beforeAll(async () => {
  if (testBackend === 'postgres') return;
  postgres = await startPostgres();
  const [sqlite, onPostgres] = await Promise.all([
    startTestServer({ env }),
    startTestServer({ env: { ...env, RHIZOME_DATABASE_URL: postgres.url, RHIZOME_POSTGRES_PREVIEW: '1' } }),
  ]);
  servers = [sqlite, onPostgres];
  const cookies = await Promise.all(servers.map((server) => setUpAccount(server)));
  sides = [
    { backend: 'sqlite', server: sqlite, cookie: cookies[0], ids: new Map(), names: new Map() },
    { backend: 'postgres', server: onPostgres, cookie: cookies[1], ids: new Map(), names: new Map() },
  ];
  openApi = (await sqlite.call('GET', '/openapi.json')).body;
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await postgres?.stop();
});

// The run starts its own pair of servers: on the postgres project's run it would only repeat itself.
describe.skipIf(testBackend === 'postgres')('the API on SQLite and on PostgreSQL', () => {
  it('answers every step of the scenario alike on both backends', async () => {
    const started = Date.now();
    const log: string[] = ['POST /auth/setup 201'];
    const outcomes: Outcome[] = [];
    for (const step of [...sourceSteps, ...graphSteps, ...platformSteps])
      outcomes.push(await runStep(sides, step, log));
    const operations = documentedOperations(openApi);
    const scripted = reachedOperations(openApi, log).reached;
    // Never swept: the closing steps' operations (deletes, resets, sign-outs), and the setup, done once.
    const closing = reachedOperations(
      openApi,
      closingSteps.map((step) => `${step.method} ${step.path}`),
    ).reached;
    const notSwept = new Set(['POST /auth/setup', ...closing]);
    for (const step of sweepSteps(openApi, operations, scripted, notSwept))
      outcomes.push(await runStep(sides, step, log));
    for (const step of closingSteps) outcomes.push(await runStep(sides, step, log));

    const { all, reached, succeeded } = reachedOperations(openApi, log);
    const keys = all.map((operation) => `${operation.method} ${operation.path}`);
    const missed = keys.filter((key) => !reached.has(key));
    const statuses = new Map<string, Set<string>>();
    for (const line of log) {
      const [method, url, status] = line.split(' ');
      const key = keys.find(
        (candidate) => candidate.startsWith(`${method} `) && matches(candidate.slice(method.length + 1), url),
      );
      if (key && !succeeded.has(key)) statuses.set(key, (statuses.get(key) ?? new Set()).add(status));
    }
    const failures = outcomes.filter((outcome) => outcome.problems.length);
    console.log(
      `backend parity: ${reached.size} of ${all.length} operations (${succeeded.size} answered 2xx) in ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s` +
        `\n  never reached (${missed.length}): ${missed.join(', ')}` +
        `\n  reached, never 2xx (${statuses.size}): ${[...statuses].map(([key, set]) => `${key} ${[...set].join('/')}`).join(', ')}` +
        (failures.length
          ? `\n  differences (${failures.length}):\n${failures.map((f) => `    ${f.step}: ${f.problems.join('; ')}`).join('\n')}`
          : ''),
    );
    expect(failures.map((f) => `${f.step}: ${f.problems.join('; ')}`)).toEqual([]);
    expect(reached.size).toBeGreaterThanOrEqual(operationsFloor);
    expect(succeeded.size).toBeGreaterThanOrEqual(succeededFloor);
  }, 300_000);
});
