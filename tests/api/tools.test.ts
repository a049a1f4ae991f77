import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automationClient, toolStep, type Execution } from '../support/automation.ts';
import type { FakeProviderControls } from '../support/fakes/controls.ts';
import { startFakeOpenAi } from '../support/fakes/openai.ts';
import { startLocalWeb, type LocalWeb } from '../support/local-web.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { validationIssuesOf, type PageOf } from '../support/api-assertions.ts';

interface SystemTool {
  id: string;
  category: string;
  is_active: boolean;
  input_schema?: { type: string; properties: Record<string, unknown>; required?: string[] };
  output_schema?: Record<string, unknown>;
}

interface UserTool {
  id: string;
  name: string;
  system_tool_id: string;
  configuration: Record<string, unknown>;
  tags: string[] | null;
  is_active: boolean;
  created_by: null;
  system_tool: SystemTool;
}

const toolIds = [
  'ai.extract_json',
  'ai.generate_embedding',
  'ai.prompt',
  'ai.vector_search',
  'data.extract',
  'data.merge',
  'http.request',
  'logic.conditional',
  'logic.loop',
  'templates.list',
];

describe('tools: the system catalogue, user tools, statistics and every tool at work', () => {
  let server: TestServer;
  let web: LocalWeb;
  let openai: FakeProviderControls;
  let db: Knex;
  let client: ReturnType<typeof automationClient>;

  /** Runs one step of `tool` with `configuration` in a throw-away workflow. */
  async function runTool(
    tool: string,
    configuration: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Promise<Execution['steps'][number]> {
    const { id } = await client.createWorkflow({
      name: `try ${tool}`,
      steps: [toolStep('only', tool, configuration, extra)],
    });
    return (await client.runToEnd(id)).steps[0];
  }

  beforeAll(async () => {
    server = await startTestServer();
    client = automationClient(server, await setUpAccount(server));
    web = await startLocalWeb();
    openai = await startFakeOpenAi();
    db = (await server.platform.databases.current()).db;
  });

  afterAll(async () => {
    await server?.stop();
    await web?.close();
    await openai?.close();
  });

  describe('system tools', () => {
    it('lists the ten built-in tools as a bare array without schemas, filtered by category', async () => {
      const all = client.ok<SystemTool[]>(await client.call('GET', '/tools/system'));
      expect(all.map((tool) => tool.id)).toEqual(toolIds);
      expect(Object.keys(all[0]).sort()).toEqual([
        'category',
        'created_at',
        'description',
        'id',
        'is_active',
        'name',
        'updated_at',
        'version',
      ]);
      expect(
        client.ok<SystemTool[]>(await client.call('GET', '/tools/system?category=logic')).map((tool) => tool.id),
      ).toEqual(['logic.conditional', 'logic.loop']);
      expect(client.ok<SystemTool[]>(await client.call('GET', '/tools/system?is_active=false'))).toEqual([]);
    });

    it('shows one tool with its JSON input and output schemas, 404 for an unknown one', async () => {
      for (const id of toolIds) {
        const tool = client.ok<SystemTool>(await client.call('GET', `/tools/system/${id}`));
        expect(tool.input_schema?.type).toBe('object');
        expect(tool.output_schema).toMatchObject({ type: 'object' });
      }
      expect(
        client.ok<SystemTool>(await client.call('GET', '/tools/system/http.request')).input_schema?.required,
      ).toEqual(['url']);
      expect((await client.call('GET', '/tools/system/web.scrape')).status).toBe(404);
    });
  });

  describe('user tools', () => {
    it('creates, lists, filters, updates and deletes user tools, checking configuration against the schema', async () => {
      const created = client.ok<UserTool>(
        await client.call('POST', '/tools', {
          name: 'Local echo',
          system_tool_id: 'http.request',
          configuration: { method: 'POST' },
          tags: ['local'],
        }),
        201,
      );
      expect(created).toMatchObject({
        name: 'Local echo',
        description: null,
        system_tool_id: 'http.request',
        configuration: { method: 'POST' },
        tags: ['local'],
        is_active: true,
        created_by: null,
      });
      expect(created.system_tool).toMatchObject({ id: 'http.request', input_schema: { required: ['url'] } });
      const other = client.ok<UserTool>(
        await client.call('POST', '/tools', {
          name: 'Merger',
          system_tool_id: 'data.merge',
          configuration: {},
          is_active: false,
        }),
        201,
      );

      expect(client.ok<UserTool>(await client.call('GET', `/tools/${created.id}`))).toEqual(created);
      const page = client.ok<PageOf<UserTool>>(await client.call('GET', '/tools?page_size=1'));
      expect(page.pagination).toMatchObject({ total: 2, total_pages: 2, has_next: true });
      expect(
        client
          .ok<PageOf<UserTool>>(await client.call('GET', '/tools?system_tool_id=data.merge'))
          .data.map((tool) => tool.id),
      ).toEqual([other.id]);
      expect(
        client.ok<PageOf<UserTool>>(await client.call('GET', '/tools?is_active=true')).data.map((tool) => tool.id),
      ).toEqual([created.id]);

      const before = await db('user_tools').count({ n: '*' });
      const wrongType = validationIssuesOf(
        await client.call('POST', '/tools', {
          name: 'Bad',
          system_tool_id: 'http.request',
          configuration: { method: 'FETCH' },
        }),
      );
      expect(wrongType[0]).toMatchObject({ loc: ['body', 'configuration'] });
      expect(wrongType[0].msg).toContain('method: must be equal to one of the allowed values');
      expect(
        validationIssuesOf(
          await client.call('POST', '/tools', { name: 'Bad', system_tool_id: 'no.such', configuration: {} }),
        )[0].loc,
      ).toEqual(['body', 'system_tool_id']);
      expect(
        validationIssuesOf(await client.call('POST', '/tools', { name: 'Bad', system_tool_id: 'data.merge' }))[0].loc,
      ).toEqual(['body', 'configuration']);
      expect(
        validationIssuesOf(
          await client.call('PATCH', `/tools/${created.id}`, { configuration: { timeout_seconds: 'soon' } }),
        )[0].msg,
      ).toContain('timeout_seconds');
      expect(await db('user_tools').count({ n: '*' })).toEqual(before);

      const patched = client.ok<UserTool>(
        await client.call('PATCH', `/tools/${created.id}`, {
          configuration: { method: 'PUT' },
          tags: null,
          description: 'put it',
        }),
      );
      expect(patched).toMatchObject({
        configuration: { method: 'PUT' },
        tags: null,
        description: 'put it',
        name: 'Local echo',
      });
      expect((await client.call('DELETE', `/tools/${other.id}`)).status).toBe(204);
      for (const [method, path] of [
        ['GET', `/tools/${other.id}`],
        ['PATCH', `/tools/${other.id}`],
        ['DELETE', `/tools/${other.id}`],
      ] as const) {
        expect((await client.call(method, path, method === 'PATCH' ? { name: 'x' } : undefined)).status).toBe(404);
      }
    });

    it('runs a user tool in a step, the step completing and overriding its configuration, and counts its calls', async () => {
      client.ok(await client.call('PATCH', '/settings', { web: { allow_private_addresses: true } }));
      const tool = client.ok<UserTool>(
        await client.call('POST', '/tools', {
          name: 'Poster',
          system_tool_id: 'http.request',
          configuration: { method: 'POST', body: { from: 'tool' } },
        }),
        201,
      );
      expect((await client.call('GET', `/tools/stats/user/${tool.id}`)).status).toBe(404);
      const { id } = await client.createWorkflow({
        name: 'Uses a user tool',
        steps: [
          {
            id: 'post',
            name: 'post',
            tool_type: 'user_tool',
            tool_id: tool.id,
            configuration: { url: `${web.url}/echo?n=1` },
          },
        ],
      });
      const execution = await client.runToEnd(id);
      expect(execution.status, execution.error ?? '').toBe('completed');
      expect(execution.steps[0].output).toMatchObject({
        status: 200,
        body: { method: 'POST', body: { from: 'tool' }, query: { n: '1' } },
      });
      const stats = client.ok<Record<string, unknown>>(await client.call('GET', `/tools/stats/user/${tool.id}`));
      expect(stats).toMatchObject({
        tool_type: 'user',
        tool_id: tool.id,
        total_calls: 1,
        successful_calls: 1,
        failed_calls: 0,
      });
      expect(stats.avg_execution_ms).toEqual(expect.any(Number));
      expect(
        client.ok<{ total_calls: number }>(await client.call('GET', '/tools/stats/system/http.request')).total_calls,
      ).toBeGreaterThanOrEqual(1);
      expect((await client.call('GET', '/tools/stats/system/never.called')).status).toBe(404);
      expect((await client.call('GET', `/tools/stats/nonsense/${tool.id}`)).status).toBe(422);

      client.ok(await client.call('PATCH', `/tools/${tool.id}`, { is_active: false }));
      const inactive = await client.runToEnd(id);
      expect(inactive.steps[0]).toMatchObject({
        status: 'failed',
        error: `user tool '${tool.id}' is inactive`,
        attempts: 0,
      });
      client.ok(await client.call('PATCH', '/settings', { web: { allow_private_addresses: false } }));
    });
  });

  describe('each system tool', () => {
    it('ai.prompt and ai.extract_json call the configured model', async () => {
      client.ok(
        await client.call('PATCH', '/settings', {
          llm: {
            chat_provider: 'openai',
            openai_base_url: openai.url,
            openai_api_key: 'sk-test',
            openai_chat_model: 'gpt-4.1',
          },
        }),
      );
      try {
        const prompt = await runTool('ai.prompt', { prompt: 'Say hello', system: 'Be brief' });
        expect(prompt).toMatchObject({
          status: 'completed',
          output: { text: 'echo: Say hello', provider: 'openai', model: 'gpt-4.1' },
        });
        expect((prompt.output as { usage: { output_tokens: number } }).usage.output_tokens).toBeGreaterThan(0);
        const sent = openai.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
        expect(sent.messages.map((message) => message.role)).toContain('system');

        // The fake echoes the prompt back, so the JSON in the text is what the "model" answers with.
        const json = await runTool('ai.extract_json', {
          text: '{"name": "Ada", "born": 1815}',
          schema: { type: 'object', required: ['name'] },
        });
        expect(json).toMatchObject({ status: 'completed', output: { data: { name: 'Ada', born: 1815 } } });
        const mismatch = await runTool('ai.extract_json', {
          text: '{"name": 1}',
          schema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        expect(mismatch.status).toBe('failed');
        expect(mismatch.error).toContain("the model's JSON does not match the schema");
        const none = await runTool('ai.extract_json', { text: 'no json here', instructions: 'Reply in prose.' });
        expect(none.error).toContain('the model answered without a JSON object or array');
      } finally {
        client.ok(await client.call('PATCH', '/settings', { llm: { chat_provider: 'builtin' } }));
      }
    });

    it('ai.generate_embedding embeds a text or a node; ai.vector_search finds the node by meaning', async () => {
      const text = await runTool('ai.generate_embedding', { text: 'river delta' });
      const { dimensions, embedding } = text.output as { dimensions: number; embedding: number[] };
      expect(embedding).toHaveLength(dimensions);
      expect(dimensions).toBeGreaterThan(1);

      const node = client.ok<{ id: string }>(
        await client.call('POST', '/nodes', { template_id: 'system_template_concept', label: 'Volcano' }),
        201,
      );
      await client.eventually(
        async () => (await db('node_embeddings').where({ node_id: node.id }).first()) as unknown,
        'the auto-embedding',
      );
      const again = await runTool('ai.generate_embedding', { entity_id: node.id, entity_type: 'node', force: true });
      expect(again.output).toMatchObject({ embedded: true, entity_id: node.id });
      const edge = await runTool('ai.generate_embedding', { entity_id: 'edge_x', entity_type: 'edge' });
      expect(edge.output).toMatchObject({ embedded: false, reason: 'only nodes have embeddings' });
      const missing = await runTool('ai.generate_embedding', { entity_id: 'node_missing' }, { retry_on_failure: true });
      expect(missing).toMatchObject({ status: 'failed', error: "node 'node_missing' not found", attempts: 1 });

      const search = await runTool('ai.vector_search', { query: 'Volcano', kind: 'nodes', limit: 5 });
      expect(search.status, search.error ?? '').toBe('completed');
      const results = (search.output as { results: { result_type: string; node: { id: string } }[] }).results;
      expect(results[0]).toMatchObject({ result_type: 'node', node: { id: node.id } });
    });

    it('data.extract, data.merge, logic.conditional, logic.loop and templates.list transform data', async () => {
      const data = { a: { list: [{ name: 'x' }, { name: 'y' }] } };
      expect((await runTool('data.extract', { data, path: 'a.list.1.name' })).output).toEqual({ value: 'y' });
      expect(
        (
          await runTool('data.extract', {
            data,
            path: 'a.nothing',
            default: 'none',
            fields: { first: 'a.list.0.name', count: 'a.list.length' },
          })
        ).output,
      ).toEqual({
        value: 'none',
        values: { first: 'x', count: 'none' },
      });
      expect(
        (await runTool('data.merge', { items: [{ a: { b: 1, c: 2 } }, { a: { b: 3 } }], strategy: 'deep' })).output,
      ).toEqual({ result: { a: { b: 3, c: 2 } } });
      expect((await runTool('data.merge', { items: [{ a: { b: 1, c: 2 } }, { a: { b: 3 } }] })).output).toEqual({
        result: { a: { b: 3 } },
      });
      expect((await runTool('data.merge', { items: [[1], null, [2, 3]] })).output).toEqual({ result: [1, 2, 3] });
      const comparisons: [Record<string, unknown>, boolean][] = [
        [{ value: 3, operator: 'greater_than', compare_to: 2 }, true],
        [{ value: 'abc', operator: 'contains', compare_to: 'b' }, true],
        [{ value: [1, 2], operator: 'contains', compare_to: 3 }, false],
        [{ value: null, operator: 'exists' }, false],
        [{ value: { a: 1 }, operator: 'equals', compare_to: { a: 1 } }, true],
        [{ value: 'false' }, false],
        [{ value: [], operator: 'falsy' }, true],
      ];
      for (const [configuration, result] of comparisons)
        expect((await runTool('logic.conditional', configuration)).output, JSON.stringify(configuration)).toEqual({
          result,
          branch: String(result),
        });
      expect((await runTool('logic.loop', { items: [1, 2, 3], max_iterations: 2 })).output).toEqual({
        results: [1, 2],
        count: 2,
      });
      const templates = (await runTool('templates.list', { template_type: 'edge' })).output as {
        templates: { id: string; template_type: string }[];
        count: number;
      };
      expect(templates.templates.map((template) => template.id)).toContain('system_template_link');
      expect(templates.templates.every((template) => template.template_type === 'edge')).toBe(true);
      // Input the schema refuses never reaches the tool: no attempt, no retry.
      const invalid = await runTool('data.extract', { path: 'x' }, { retry_on_failure: true });
      expect(invalid).toMatchObject({ status: 'failed', attempts: 0 });
      expect(invalid.error).toContain("must have required property 'data'");
    });

    it('http.request refuses private addresses by default and metadata addresses always', async () => {
      const echoes = () => web.requests.filter((request) => request.path === '/echo').length;
      const echoesBefore = echoes();
      const refused = await runTool('http.request', { url: `${web.url}/echo` }, { retry_on_failure: true });
      expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
      expect(refused.error).toMatch(/^refused: 127\.0\.0\.1 is not a public address/);
      const localhost = await runTool('http.request', { url: `http://localhost:${new URL(web.url).port}/echo` });
      expect(localhost.error).toMatch(/^refused: .*not a public address/);
      expect(echoes()).toBe(echoesBefore);

      client.ok(await client.call('PATCH', '/settings', { web: { allow_private_addresses: true } }));
      try {
        expect((await runTool('http.request', { url: 'http://169.254.169.254/latest/meta-data' })).error).toMatch(
          /^refused: .*metadata/,
        );
        expect((await runTool('http.request', { url: 'file:///etc/passwd' })).error).toMatch(
          /^refused: Only http and https/,
        );
        const posted = await runTool('http.request', {
          url: `${web.url}/echo?q=1`,
          method: 'POST',
          body: { n: 1 },
          headers: { 'x-trace': 'abc' },
        });
        expect(posted.output).toMatchObject({
          status: 200,
          body: { method: 'POST', body: { n: 1 }, query: { q: '1' } },
          url: `${web.url}/echo?q=1`,
        });
        expect(web.requests.at(-1)!.headers['x-trace']).toBe('abc');
        expect((await runTool('http.request', { url: `${web.url}/text` })).output).toMatchObject({
          status: 200,
          body: 'plain words',
        });
        expect(
          (await runTool('http.request', { url: `${web.url}/missing`, fail_on_status: false })).output,
        ).toMatchObject({ status: 404, body: { error: 'nope' } });
        expect((await runTool('http.request', { url: `${web.url}/missing` })).error).toBe(
          `HTTP 404 from ${web.url}/missing`,
        );
        const slow = await runTool('http.request', { url: `${web.url}/slow?ms=3000`, timeout_seconds: 0.3 });
        expect(slow.error).toBe(`the request to ${web.url}/slow?ms=3000 took longer than 300 ms`);
      } finally {
        client.ok(await client.call('PATCH', '/settings', { web: { allow_private_addresses: false } }));
      }
    });
  });
});
