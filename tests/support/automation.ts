import type { StepRun } from '@rhizome/core/automation';
import { expect } from 'vitest';
import type { Knex } from 'knex';
import { startLocalWeb, type LocalWeb } from './local-web.ts';
import { setUpAccount, startTestServer, type CallResult, type TestServer } from './server.ts';
import { until } from './wait.ts';

/** An execution as the automation tests read it back from the API. */
export interface Execution {
  id: string;
  workflow_id: string;
  trigger_id: string | null;
  parent_execution_id: string | null;
  status: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  error: string | null;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  steps: StepRun[];
  child_execution_ids: string[];
}

/** A client bound to one server and session, whose `ok` asserts the status and returns the body. */
export function automationClient(server: TestServer, cookie: string) {
  const call = (method: string, apiPath: string, body?: unknown) => server.call(method, apiPath, { cookie, body });
  const ok = <T>(result: CallResult, status = 200): T => {
    expect(result.status, result.text).toBe(status);
    return result.body as T;
  };

  /** Polls an execution until it reaches one of `statuses` (finished ones by default). */
  async function waitForExecution(
    id: string,
    statuses = ['completed', 'failed', 'cancelled'],
    timeoutMs = 30_000,
  ): Promise<Execution> {
    return until(
      async () => {
        const result = await call('GET', `/workflows/executions/${id}`);
        return result.status === 200 && statuses.includes((result.body as Execution).status)
          ? (result.body as Execution)
          : undefined;
      },
      { timeoutMs, what: `execution ${id} to reach ${statuses.join('/')}` },
    );
  }

  /** Runs a workflow and waits for the execution to finish. */
  async function runToEnd(workflowId: string, inputs: Record<string, unknown> = {}): Promise<Execution> {
    const queued = ok<{ execution_id: string }>(
      await call('POST', `/workflows/${workflowId}/executions`, { inputs }),
      202,
    );
    return waitForExecution(queued.execution_id);
  }

  /** Polls `probe` until it returns a value other than undefined (or false). */
  const eventually = <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> =>
    until(probe, { timeoutMs, what });

  const createWorkflow = async (body: Record<string, unknown>) =>
    ok<{ id: string; steps: { id: string }[] }>(await call('POST', '/workflows', body), 201);

  return { call, ok, waitForExecution, runToEnd, eventually, createWorkflow };
}

/** A step calling a system tool. */
export function toolStep(
  id: string,
  toolId: string,
  configuration: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return { id, name: id, tool_type: 'system_tool', tool_id: toolId, configuration, ...extra };
}

/**
 * A test server with an account, its active database, and a local web server that http.request may
 * reach (loopback: private addresses are allowed, which tools.test.ts checks the default refuses).
 */
export async function startAutomationServer(): Promise<{
  server: TestServer;
  web: LocalWeb;
  db: Knex;
  client: ReturnType<typeof automationClient>;
}> {
  const server = await startTestServer();
  const client = automationClient(server, await setUpAccount(server));
  const web = await startLocalWeb();
  const db = (await server.platform.databases.current()).db;
  client.ok(await client.call('PATCH', '/settings', { web: { allow_private_addresses: true } }));
  return { server, web, db, client };
}
