import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automationClient, toolStep } from '../support/automation.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';

const workflowId = 'system_workflow_generate_embeddings_v1';
const triggerId = 'system_trigger_auto_embed_create_v1';

describe('automation: seeded auto-embedding, settings and every creation path', () => {
  let server: TestServer;
  let cookie: string;
  let db: Knex;
  let client: ReturnType<typeof automationClient>;
  const vectorOf = (nodeId: string) =>
    db('node_embeddings').where({ node_id: nodeId }).first('model', 'dimensions') as Promise<
      { model: string; dimensions: number } | undefined
    >;
  const createNode = async (body: Record<string, unknown>) =>
    client.ok<{ id: string; embedding: number[] | null }>(
      await client.call('POST', '/nodes', { template_id: 'system_template_concept', ...body }),
      201,
    );
  const systemExecutionsFor = (nodeId: string) =>
    db('workflow_executions')
      .where({ trigger_id: triggerId })
      .whereRaw("json_extract(inputs, '$.entity_id') = ?", [nodeId]);

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    client = automationClient(server, cookie);
    db = (await server.platform.databases.current()).db;
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('seeds the system workflow and trigger in every database, once', async () => {
    const workflow = client.ok<Record<string, unknown> & { steps: Record<string, unknown>[] }>(
      await client.call('GET', `/workflows/${workflowId}`),
    );
    expect(workflow).toMatchObject({
      name: 'Generate Embeddings',
      category: 'system',
      is_system: true,
      is_active: true,
      expose_as_ai_tool: false,
      input_schema: {
        type: 'object',
        required: ['entity_id'],
        properties: { entity_id: { type: 'string' }, entity_type: { type: 'string' }, entity: {} },
      },
    });
    expect(workflow.steps).toEqual([
      expect.objectContaining({
        id: `${workflowId}_step_generate`,
        tool_type: 'system_tool',
        tool_id: 'ai.generate_embedding',
        configuration: {
          entity_id: '{{inputs.entity_id}}',
          entity_type: '{{inputs.entity_type}}',
          entity: '{{inputs.entity}}',
        },
      }),
    ]);
    expect(client.ok(await client.call('GET', `/triggers/${triggerId}`))).toMatchObject({
      name: 'Auto-Embed on Node Create',
      event_source: 'node.create',
      filters: {},
      workflow_id: workflowId,
      workflow_inputs: null,
      enabled: true,
      priority: 0,
    });

    client.ok(await client.call('POST', '/databases', { name: 'second' }), 201);
    const second = await server.platform.databases.connection('second');
    expect(await second('triggers').where({ id: triggerId }).count({ n: '*' })).toEqual([{ n: 1 }]);
    expect(await second('workflow_steps').where({ workflow_id: workflowId }).count({ n: '*' })).toEqual([{ n: 1 }]);
    // Seeding again (every start) leaves the rows, and an operator's choices, as they are.
    await db('triggers').where({ id: triggerId }).update({ priority: 7 });
    for (const seed of (await import('@rhizome/core/platform')).featureModules.flatMap((module) => module.seeds ?? []))
      await seed(db, 'default');
    expect(await db('triggers').where({ id: triggerId }).select('priority')).toEqual([{ priority: 7 }]);
    expect(await db('workflows').where({ id: workflowId }).count({ n: '*' })).toEqual([{ n: 1 }]);
    await db('triggers').where({ id: triggerId }).update({ priority: 0 });
  });

  it('embeds a node created through the API without a call to the embeddings endpoint', async () => {
    const node = await createNode({ label: 'Photosynthesis', properties: {} });
    expect(node.embedding).toBeNull();
    const vector = await client.eventually(() => vectorOf(node.id), 'the node vector');
    const identity = server.platform.providers.embeddings.identity();
    expect(vector).toEqual({ model: identity.model, dimensions: expect.any(Number) });
    const shown = client.ok<{ embedding: number[] }>(await client.call('GET', `/nodes/${node.id}`));
    expect(shown.embedding).toHaveLength(vector.dimensions);
    const [execution] = (await systemExecutionsFor(node.id)) as { id: string }[];
    const detail = await client.waitForExecution(execution.id);
    expect(detail).toMatchObject({
      status: 'completed',
      workflow_id: workflowId,
      trigger_id: triggerId,
      inputs: { entity_type: 'node', entity_id: node.id },
    });
    expect(detail.steps[0]).toMatchObject({
      status: 'completed',
      output: { embedded: true, entity_id: node.id, model: identity.model, dimensions: vector.dimensions },
    });

    // A vector the client supplied is kept.
    const own = await createNode({ label: 'Own vector', embedding: [0.5, 0.5] });
    const [ownExecution] = (await client.eventually(async () => {
      const rows = (await systemExecutionsFor(own.id)) as { id: string }[];
      return rows.length ? rows : undefined;
    }, 'the execution')) as { id: string }[];
    expect((await client.waitForExecution(ownExecution.id)).steps[0].output).toMatchObject({
      embedded: false,
      reason: 'the node has a client-supplied embedding',
    });
    expect(await vectorOf(own.id)).toEqual({ model: 'user', dimensions: 2 });
  });

  it('re-embeds a node whose label or description is edited, and leaves a moved or client-vectored one alone', async () => {
    const vectorText = async (nodeId: string) => {
      const row = (await db('node_embeddings').where({ node_id: nodeId }).first('vector', 'model')) as
        { vector: Buffer; model: string } | undefined;
      return row && `${row.model}:${row.vector.toString('base64')}`;
    };
    const node = await createNode({ label: 'Mitochondrion', properties: { description: 'organelle of the cell' } });
    const first = await client.eventually(() => vectorText(node.id), 'the first vector');
    client.ok(
      await client.call('PATCH', `/nodes/${node.id}`, {
        label: 'Volcano',
        properties: { description: 'a mountain that erupts lava' },
      }),
    );
    const second = await client.eventually(async () => {
      const now = await vectorText(node.id);
      return now && now !== first ? now : undefined;
    }, 'a vector of the new text');
    const identity = server.platform.providers.embeddings.identity();
    expect(second.startsWith(`${identity.model}:`)).toBe(true);
    // The new vector is the new text's: the node is the best node match for "lava eruption".
    const [hit] = client
      .ok<{ data: { result_type: string; node: { id: string } | null }[] }>(
        await client.call('GET', '/search?q=lava+eruption+mountain&search_type=semantic&limit=20'),
      )
      .data.filter((item) => item.result_type === 'node');
    expect(hit.node!.id).toBe(node.id);

    // A vector the client supplied stays through a label edit.
    const own = await createNode({ label: 'Own', embedding: [0.25, 0.75] });
    client.ok(await client.call('PATCH', `/nodes/${own.id}`, { label: 'Own renamed' }));
    expect(await vectorOf(own.id)).toEqual({ model: 'user', dimensions: 2 });
  });

  it('switches only the system triggers with enable_auto_embedding', async () => {
    const witness = await client.createWorkflow({
      name: 'Witness',
      steps: [toolStep('see', 'data.merge', { items: [{ id: '{{inputs.entity_id}}' }] })],
    });
    const userTrigger = client.ok<{ id: string }>(
      await client.call('POST', '/triggers', {
        name: 'witness',
        event_source: 'node.create',
        filters: {},
        workflow_id: witness.id,
      }),
      201,
    );
    client.ok(await client.call('PATCH', '/settings', { embedding: { enable_auto_embedding: false } }));
    expect(client.ok<{ enabled: boolean }>(await client.call('GET', `/triggers/${triggerId}`)).enabled).toBe(false);
    expect(client.ok<{ enabled: boolean }>(await client.call('GET', `/triggers/${userTrigger.id}`)).enabled).toBe(true);
    const second = await server.platform.databases.connection('second');
    expect(await second('triggers').where({ id: triggerId }).select('enabled')).toEqual([{ enabled: 0 }]);
    // A database created while it is off starts with its system trigger off.
    client.ok(await client.call('POST', '/databases', { name: 'third' }), 201);
    const third = await server.platform.databases.connection('third');
    expect(await third('triggers').where({ id: triggerId }).select('enabled')).toEqual([{ enabled: 0 }]);

    const node = await createNode({ label: 'Left alone' });
    // The user trigger's execution proves the event was dispatched; the system one did not fire.
    await client.eventually(async () => {
      const row = (await db('workflow_executions')
        .where({ trigger_id: userTrigger.id, status: 'completed' })
        .whereRaw("json_extract(inputs, '$.entity_id') = ?", [node.id])
        .first()) as unknown;
      return row ?? undefined;
    }, 'the witness execution');
    expect(await systemExecutionsFor(node.id)).toEqual([]);
    expect(await vectorOf(node.id)).toBeUndefined();

    client.ok(await client.call('PATCH', '/settings', { embedding: { enable_auto_embedding: true } }));
    expect(client.ok<{ enabled: boolean }>(await client.call('GET', `/triggers/${triggerId}`)).enabled).toBe(true);
    const later = await createNode({ label: 'Embedded again' });
    await client.eventually(() => vectorOf(later.id), 'the vector after re-enabling');
    client.ok(await client.call('DELETE', `/triggers/${userTrigger.id}`), 204);
  });

  it('fires node.create for nodes an extraction commits; the auto-embed trigger skips them, as commit embeds them itself', async () => {
    const witness = await client.createWorkflow({
      name: 'Commit witness',
      steps: [toolStep('see', 'data.merge', { items: [{ id: '{{inputs.entity_id}}' }] })],
    });
    const userTrigger = client.ok<{ id: string }>(
      await client.call('POST', '/triggers', {
        name: 'commit witness',
        event_source: 'node.create',
        filters: {},
        workflow_id: witness.id,
      }),
      201,
    );
    const text = 'Marie Curie was a physicist who was born in Warsaw. Marie Curie married Pierre Curie in Paris.';
    const accepted = await uploadSources(server, cookie, '/sources', [{ name: 'curie.txt', content: text }], {
      auto_confirm: 'true',
      domain: 'biographical',
    });
    expect(accepted.status, accepted.text).toBe(202);
    const source = await waitForSource(
      server,
      cookie,
      (accepted.body as { id: string }).id,
      ['committed', 'error'],
      60_000,
    );
    expect(source.status).toBe('committed');
    const created = (await db('node_sources').where({ source_id: source.id }).pluck('node_id')) as string[];
    expect(created.length).toBeGreaterThan(0);
    for (const nodeId of created) {
      await client.eventually(async () => {
        const row = (await db('workflow_executions')
          .where({ trigger_id: userTrigger.id, status: 'completed' })
          .whereRaw("json_extract(inputs, '$.entity_id') = ?", [nodeId])
          .first()) as unknown;
        return row ?? undefined;
      }, `the witness execution for ${nodeId}`);
      expect(await systemExecutionsFor(nodeId)).toEqual([]);
      expect(await vectorOf(nodeId)).toEqual({
        model: server.platform.providers.embeddings.identity().model,
        dimensions: expect.any(Number),
      });
    }
    client.ok(await client.call('DELETE', `/triggers/${userTrigger.id}`), 204);
  });

  it('logs a warning for a filter key the event payload never has', async () => {
    const witness = await client.createWorkflow({
      name: 'Never',
      steps: [toolStep('noop', 'data.merge', { items: [{}] })],
    });
    const trigger = client.ok<{ id: string }>(
      await client.call('POST', '/triggers', {
        name: 'by label',
        event_source: 'node.create',
        filters: { label: 'x' },
        workflow_id: witness.id,
      }),
      201,
    );
    await createNode({ label: 'x' });
    await server.platform.automation.dispatcher.settled();
    const logs = () =>
      fs
        .readdirSync(server.platform.paths.logsDir)
        .map((file) => fs.readFileSync(path.join(server.platform.paths.logsDir, file), 'utf8'))
        .join('\n');
    await client.eventually(
      async () =>
        logs().includes(`trigger ${trigger.id}: filter key 'label' is not in the node.create payload`)
          ? true
          : undefined,
      'the warning',
    );
    expect(await db('workflow_executions').where({ trigger_id: trigger.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });
});
