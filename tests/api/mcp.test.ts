import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceResponseBody } from '@rhizome/contracts/api/sources';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { uploadSources, waitForSource } from '../support/sources.ts';
import { callTool, connectHttp, toolNames, toolResult } from '../support/mcp-client.ts';

const curie = [
  'Marie Curie was born in Warsaw in 1867.',
  'Marie Curie married Pierre Curie in Paris in 1895.',
  'Pierre Curie worked at the University of Paris, where he taught physics to many students.',
].join(' ');

const readTools = [
  'analyze_graph_structure',
  'find_shortest_path',
  'find_similar_nodes',
  'get_chunk',
  'get_document_status',
  'get_extraction_chunks',
  'get_extraction_progress',
  'get_extraction_tasks',
  'get_node',
  'get_node_context',
  'get_node_edges',
  'get_summary_context',
  'graph_search',
  'graph_statistics',
  'graphrag_search',
  'list_edges',
  'list_sources',
  'list_templates',
  'node_context',
  'node_edges',
  'resolve_alias',
  'resolve_node',
  'search_chunks',
  'search_nodes',
  'search_templates',
  'shortest_path',
  'similar_nodes',
  'source_progress',
  'traverse',
  'traverse_path',
];
const writeTools = [
  'add_document',
  'confirm_extraction',
  'confirm_source_domain',
  'create_edge',
  'create_node',
  'create_template',
  'delete_node',
  'delete_template',
  'finalize_extraction',
  'remove_document',
  'submit_chunk_extraction',
  'update_node',
  'wait_for_document',
];

interface SearchBody {
  data: {
    result_type: string;
    node: { id: string; label: string } | null;
    chunk: { chunk_id: string; source_id: string } | null;
  }[];
  triples?: unknown[];
}

describe('MCP over Streamable HTTP', () => {
  let server: TestServer;
  let cookie: string;
  let key: string;
  let client: Client;
  let curieId: string;
  const setMode = async (mode: 'read' | 'write') => {
    expect((await server.call('PATCH', '/settings', { cookie, body: { mcp: { mode } } })).status).toBe(200);
  };
  const restEdge = async (id: string) =>
    (await server.call('GET', `/edges/${id}`, { cookie })).body as { label: string };

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await setUpAccount(server);
    key = ((await server.call('POST', '/auth/keys', { cookie, body: { name: 'agent' } })).body as { key: string }).key;
    const accepted = await uploadSources(server, cookie, '/sources', [{ name: 'curie.txt', content: curie }], {
      auto_confirm: 'true',
      domain: 'biographical',
    });
    curieId = (accepted.body as SourceResponseBody).id;
    expect((await waitForSource(server, cookie, curieId, ['committed', 'error'], 60_000)).status).toBe('committed');
    client = await connectHttp(server, key);
  }, 90_000);
  afterAll(async () => {
    await client?.close();
    await server.stop();
  });

  it('refuses a client without credentials (401) and a session of another identity', async () => {
    const rpc = (headers: Record<string, string>, message: Record<string, unknown>) =>
      fetch(`${server.base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      });
    const initialize = {
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    expect((await rpc({}, initialize)).status).toBe(401);

    const opened = await rpc({ authorization: `Bearer ${key}` }, initialize);
    expect(opened.status).toBe(200);
    await opened.text();
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    const otherKey = (
      (await server.call('POST', '/auth/keys', { cookie, body: { name: 'other agent' } })).body as { key: string }
    ).key;
    const listTools = { id: 2, method: 'tools/list', params: {} };
    for (const stranger of [{ authorization: `Bearer ${otherKey}` }, { cookie }] as Record<string, string>[]) {
      const refused = await rpc({ ...stranger, 'mcp-session-id': session }, listTools);
      expect(refused.status).toBe(404);
      expect(await refused.json()).toMatchObject({ error: 'NOT_FOUND', message: expect.stringContaining(session) });
    }
    const owner = await rpc({ authorization: `Bearer ${key}`, 'mcp-session-id': session }, listTools);
    expect(owner.status).toBe(200);
    expect(await owner.text()).toContain('graph_search');
    const ended = await fetch(`${server.base}/mcp`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}`, 'mcp-session-id': session },
    });
    expect(ended.status).toBe(200);
    expect((await rpc({ authorization: `Bearer ${key}`, 'mcp-session-id': session }, listTools)).status).toBe(404);
  });

  it('documents POST, GET and DELETE /mcp in the OpenAPI document', async () => {
    const document = (await server.call('GET', '/openapi.json', { cookie })).body as {
      paths: Record<string, Record<string, { tags: string[]; responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(document.paths['/mcp'] ?? {}).sort()).toEqual(['delete', 'get', 'post']);
    expect(document.paths['/mcp'].post).toMatchObject({
      tags: ['mcp'],
      responses: { 200: { content: { 'text/event-stream': expect.anything() } }, 401: expect.anything() },
    });
    // Malformed JSON is the API's 422, as on every route; a message that opens no session, 400.
    for (const [method, body, status] of [
      ['POST', '{"jsonrpc": ', 422],
      ['POST', '[1, 2]', 400],
      ['GET', undefined, 400],
      ['DELETE', undefined, 400],
    ] as const) {
      const response = await fetch(`${server.base}/mcp`, {
        method,
        headers: { cookie, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
      expect(response.status, `${method} ${body}`).toBe(status);
      expect(Object.keys(await response.json()).sort()).toEqual(['details', 'error', 'message']);
    }
  });

  it('offers the read tools in read mode, the write tools too in write mode, and refuses write calls in read mode', async () => {
    expect(await toolNames(client)).toEqual(readTools);
    const refused = await callTool(client, 'create_node', { template_id: 'system_template_person', label: 'Nobody' });
    expect(refused).toMatchObject({ isError: true, body: { status: 403, error: 'HTTP_403' } });
    expect((refused.body as { message: string }).message).toContain('mcp.mode');
    await setMode('write');
    expect(await toolNames(client)).toEqual([...readTools, ...writeTools].sort());
    await setMode('read');
  });

  it('answers every read tool on the pipeline-built graph as the REST API does', async () => {
    const rest = (
      await server.call(
        'GET',
        `/search?${new URLSearchParams({ q: 'Who did Marie Curie marry?', search_type: 'graph', limit: '10' })}`,
        { cookie },
      )
    ).body as SearchBody;
    const graph = await toolResult<{
      passages: { chunk_id: string; source_id: string; page: number | null }[];
      entities: { id: string }[];
      triples: unknown[];
    }>(client, 'graph_search', { query: 'Who did Marie Curie marry?', limit: 10 });
    expect(graph.passages.map((passage) => passage.chunk_id)).toEqual(
      rest.data.flatMap((item) => (item.chunk ? [item.chunk.chunk_id] : [])),
    );
    expect(graph.entities.map((entity) => entity.id)).toEqual(
      rest.data.flatMap((item) => (item.node ? [item.node.id] : [])),
    );
    expect(graph.triples).toEqual(rest.triples ?? []);
    expect(graph.passages[0].source_id).toBe(curieId);

    const nodes = await toolResult<{ nodes: { id: string; label: string }[] }>(client, 'search_nodes', {
      query: 'Marie Curie',
    });
    const marie = nodes.nodes.find((node) => node.label === 'Marie Curie');
    const pierre = (await toolResult<{ matches: { id: string }[] }>(client, 'resolve_alias', { name: 'pierre curie' }))
      .matches[0];
    expect(marie && pierre).toBeTruthy();
    const restNode = (await server.call('GET', `/nodes/${marie!.id}`, { cookie })).body as Record<string, unknown>;
    const { embedding: _vector, ...expectedNode } = restNode;
    expect(await toolResult(client, 'get_node', { node_id: marie!.id })).toEqual({
      ...expectedNode,
      success: true,
      node: expectedNode,
    });
    expect(await toolResult(client, 'get_node', { query: 'marie curie' })).toEqual({
      success: true,
      node: expectedNode,
      search_query: 'marie curie',
    });

    const context = await toolResult<{
      node: { id: string };
      edges: { node: { id: string } }[];
      citations: { source_id: string; chunk_id: string; sentence: string }[];
    }>(client, 'node_context', { node_id: marie!.id });
    const restCitations = (await server.call('GET', `/nodes/${marie!.id}/citations`, { cookie })).body as {
      data: { chunk: { id: string } }[];
    };
    expect(context.citations.map((citation) => citation.chunk_id)).toEqual(
      restCitations.data.slice(0, 10).map((citation) => citation.chunk.id),
    );
    expect(context.citations[0]).toMatchObject({ source_id: curieId });
    const neighbours = (await server.call('GET', `/graph/grounding/nodes/${marie!.id}/neighbors?limit=25`, { cookie }))
      .body as { neighbors: { node: { id: string } }[] };
    expect(context.edges.map((edge) => edge.node.id)).toEqual(neighbours.neighbors.map((neighbor) => neighbor.node.id));

    const edges = await toolResult<{ edges: { relationship: string; node: { id: string } }[] }>(client, 'node_edges', {
      node_id: marie!.id,
      direction: 'both',
    });
    expect(edges.edges.length).toBe(context.edges.length);
    const path = await toolResult<{ found: boolean; hops: number }>(client, 'shortest_path', {
      from_node_id: marie!.id,
      to_node_id: pierre.id,
    });
    expect(path).toMatchObject({ found: true });
    const walk = await toolResult<{ nodes: { node_id: string; depth: number }[] }>(client, 'traverse', {
      node_id: marie!.id,
      depth: 2,
    });
    expect(walk.nodes.map((node) => node.node_id)).toContain(pierre.id);
    expect(
      (await toolResult<{ similar: unknown[] }>(client, 'similar_nodes', { node_id: marie!.id })).similar,
    ).toBeInstanceOf(Array);

    const stats = await toolResult<{ counts: { nodes: number; edges: number }; top_nodes_by_pagerank: unknown[] }>(
      client,
      'graph_statistics',
      {},
    );
    const restStats = (await server.call('GET', '/nodes?page_size=1', { cookie })).body as {
      pagination: { total: number };
    };
    expect(stats.counts.nodes).toBe(restStats.pagination.total);
    expect(stats.top_nodes_by_pagerank.length).toBeGreaterThan(0);

    const structure = await toolResult<{
      success: boolean;
      statistics: { node_count: number; edge_count: number; num_communities: number };
      communities: { size: number; sample_members: { id: string; label: string }[] }[];
      top_nodes: { id: string; label: string; pagerank: number }[];
    }>(client, 'analyze_graph_structure', {});
    expect(structure.success).toBe(true);
    expect(structure.statistics.node_count).toBe(restStats.pagination.total);
    expect(structure.statistics.edge_count).toBeGreaterThan(0);
    expect(structure.communities[0].sample_members.map((member) => member.label)).not.toContain(null);
    expect(structure.top_nodes[0].label).toEqual(expect.any(String));

    const sources = await toolResult<{ sources: { source_id: string; status: string }[] }>(client, 'list_sources', {});
    expect(sources.sources).toEqual([expect.objectContaining({ source_id: curieId, status: 'committed' })]);
    expect(await toolResult(client, 'source_progress', { source_id: curieId })).toMatchObject({
      source: { status: 'committed' },
      extraction: { status: 'completed' },
    });
    const chunk = await toolResult<{ chunk_id: string; text: string; before: unknown[] }>(client, 'get_chunk', {
      chunk_id: graph.passages[0].chunk_id,
    });
    const restChunk = (await server.call('GET', `/sources/${curieId}/chunks/${graph.passages[0].chunk_id}`, { cookie }))
      .body as { content: string };
    expect(chunk.text).toBe(restChunk.content);
    const chunks = await toolResult<{ chunks: { chunk_id: string }[] }>(client, 'search_chunks', {
      query: 'Warsaw',
      mode: 'keyword',
    });
    expect(chunks.chunks.length).toBeGreaterThan(0);
    expect(
      (await toolResult<{ templates: { id: string }[] }>(client, 'search_templates', { query: 'person' })).templates
        .length,
    ).toBeGreaterThan(0);
  });

  it('answers by the tool names, arguments and result keys agents of the original system use', async () => {
    const graph = await toolResult<{
      success: boolean;
      chunks: { chunk_id: string; source_id: string }[];
      graph_context: { entities: { id: string }[]; relationships: unknown[] };
      retrieval_stats: { mode: string; chunks_returned: number };
    }>(client, 'graphrag_search', { query: 'Who did Marie Curie marry?', limit: 3, seed_limit: 2 });
    expect(graph.success).toBe(true);
    expect(graph.chunks.length).toBeGreaterThan(0);
    expect(graph.chunks.length).toBeLessThanOrEqual(3);
    expect(graph.graph_context.entities.length).toBeLessThanOrEqual(2);
    expect(graph.retrieval_stats).toMatchObject({ mode: 'graph', chunks_returned: graph.chunks.length });

    const resolved = await toolResult<{
      resolved_node: { id: string; label: string };
      confidence: number;
      search_method: string;
      alternatives: unknown[];
    }>(client, 'resolve_node', { query: 'marie curie' });
    expect(resolved).toMatchObject({
      resolved_node: { label: 'Marie Curie' },
      confidence: 1,
      search_method: 'exact_label',
    });
    const marie = resolved.resolved_node.id;
    const pierre = (
      await toolResult<{ resolved_node: { id: string } }>(client, 'resolve_node', { query: 'Pierre Curie' })
    ).resolved_node.id;
    expect(await toolResult(client, 'resolve_node', { query: 'Nobody Of That Name Anywhere' })).toMatchObject({
      success: false,
    });

    const restNode = (await server.call('GET', `/nodes/${marie}`, { cookie })).body as { outgoing_edge_count: number };
    const context = await toolResult<{
      node: Record<string, unknown>;
      outgoing_edges: { edge_id: string; target: { id: string; label: string } }[];
      incoming_edges: unknown[];
      edge_summary: { outgoing_count: number; incoming_count: number };
      related_chunks?: { chunk_id: string }[];
    }>(client, 'get_node_context', { node_id: marie, include_chunks: true });
    expect(Object.keys(context.node).sort()).toEqual(
      ['created_at', 'id', 'label', 'properties', 'source_id', 'template_id', 'updated_at'].sort(),
    );
    expect(context.edge_summary.outgoing_count).toBe(restNode.outgoing_edge_count);
    expect(context.outgoing_edges.map((edge) => edge.target.id)).toContain(pierre);
    expect(context.related_chunks?.length).toBeGreaterThan(0);
    expect(await toolResult(client, 'get_node_context', { node_id: marie, include_edges: false })).not.toHaveProperty(
      'outgoing_edges',
    );

    const married = context.outgoing_edges.find((edge) => edge.target.id === pierre)!;
    const edges = await toolResult<{ count: number; edge_type_filter: string; edges: { edge_id: string }[] }>(
      client,
      'get_node_edges',
      { node_id: marie, direction: 'outgoing', edge_type: (await restEdge(married.edge_id)).label },
    );
    expect(edges.edges.map((edge) => edge.edge_id)).toContain(married.edge_id);
    const listed = await toolResult<{ count: number; edges: { id: string }[] }>(client, 'list_edges', {
      node_id: marie,
    });
    expect(listed.edges.map((edge) => edge.id)).toContain(married.edge_id);

    expect(await toolResult(client, 'find_shortest_path', { source_id: marie, target_id: pierre })).toEqual({
      success: true,
      path: [expect.objectContaining({ id: marie }), expect.objectContaining({ id: pierre })],
      length: 1,
    });
    const walk = await toolResult<{ start_node: { id: string }; nodes_found: number; results: { node_id: string }[] }>(
      client,
      'traverse_path',
      { start_node_id: marie, max_depth: 1 },
    );
    expect(walk.start_node.id).toBe(marie);
    expect(walk.results.map((entry) => entry.node_id)).toContain(pierre);
    expect(walk.nodes_found).toBe(walk.results.length);
    const similar = await toolResult<{ count: number; similar_nodes: { id: string }[]; source_node: { id: string } }>(
      client,
      'find_similar_nodes',
      { node_id: marie },
    );
    expect(similar.source_node.id).toBe(marie);
    expect(similar.similar_nodes.map((node) => node.id)).not.toContain(marie);

    const templates = await toolResult<{ count: number; templates: { template_type: string }[] }>(
      client,
      'list_templates',
      { template_type: 'edge' },
    );
    expect(templates.count).toBe(templates.templates.length);
    expect(new Set(templates.templates.map((template) => template.template_type))).toEqual(new Set(['edge']));

    const summary = await toolResult<{
      strategy: string;
      chunks_selected: number;
      sources_used: number;
      chunks: unknown[];
    }>(client, 'get_summary_context', { query: 'Curie', limit: 5 });
    expect(summary).toMatchObject({ strategy: 'diverse_sources', sources_used: 1 });
    expect(summary.chunks_selected).toBe(summary.chunks.length);

    const status = await toolResult<{ documents: { id: string; status: string }[] }>(client, 'get_document_status');
    expect(status.documents).toEqual([expect.objectContaining({ id: curieId, status: 'committed' })]);
    const nodes = await toolResult<{ success: boolean; count: number; query: string }>(client, 'search_nodes', {
      query: 'Curie',
    });
    expect(nodes).toMatchObject({ success: true, query: 'Curie' });
  });

  it('refuses bad arguments with a 422 envelope and changes nothing', async () => {
    expect(await callTool(client, 'get_node', {})).toMatchObject({
      isError: true,
      body: { status: 422, error: 'VALIDATION_FAILED' },
    });
    expect(await callTool(client, 'get_node', { node_id: 'missing' })).toMatchObject({
      isError: true,
      body: { status: 404 },
    });
  });

  it('refuses sandbox escapes: .., absolute paths, dotfiles and links', async () => {
    await setMode('write');
    try {
      const sandbox = path.join(server.dataDir, 'mcp');
      fs.mkdirSync(path.join(sandbox, 'docs'), { recursive: true });
      fs.writeFileSync(
        path.join(sandbox, 'docs', 'note.txt'),
        'Ada Lovelace wrote the first algorithm for the Analytical Engine in 1843.',
      );
      fs.writeFileSync(path.join(sandbox, '.secret.txt'), 'hidden');
      fs.writeFileSync(path.join(server.dataDir, 'outside.txt'), 'outside');
      fs.symlinkSync(path.join(server.dataDir, 'outside.txt'), path.join(sandbox, 'link.txt'));
      const before = (await server.call('GET', '/sources', { cookie })).body as { pagination: { total: number } };
      for (const escape of [
        '../outside.txt',
        'docs/../../outside.txt',
        path.join(server.dataDir, 'outside.txt'),
        '.secret.txt',
        'docs/.hidden/x.txt',
        'link.txt',
      ]) {
        const refused = await callTool(client, 'add_document', { path: escape, extract_entities: false });
        expect(refused.isError, escape).toBe(true);
        expect([403, 404], escape).toContain((refused.body as { status: number }).status);
      }
      expect(
        ((await server.call('GET', '/sources', { cookie })).body as { pagination: { total: number } }).pagination.total,
      ).toBe(before.pagination.total);
      const added = await toolResult<{ source_id: string }>(client, 'add_document', {
        path: 'docs/note.txt',
        extract_entities: false,
      });
      expect(
        await toolResult(client, 'wait_for_document', { source_id: added.source_id, until: 'indexed' }),
      ).toMatchObject({ source: { status: 'indexed' }, timed_out: false });
      await toolResult(client, 'remove_document', { source_id: added.source_id });
      expect((await server.call('GET', `/sources/${added.source_id}`, { cookie })).status).toBe(404);
    } finally {
      await setMode('read');
    }
  });

  it('runs a client-driven extraction to committed: every group answered, one line malformed', async () => {
    await setMode('write');
    try {
      const text =
        'Ada Lovelace worked with Charles Babbage in London. In 1843 Lovelace published the first algorithm for the Analytical Engine.';
      const added = await toolResult<{ source_id: string }>(client, 'add_document', {
        text,
        title: 'Lovelace',
        extract_entities: false,
        domain: 'biographical',
      });
      await toolResult(client, 'wait_for_document', { source_id: added.source_id, until: 'indexed' });
      const tasks = await toolResult<{
        total_groups: number;
        tasks: { group_index: number; next_pass: string; prompt: string }[];
      }>(client, 'get_extraction_tasks', { source_id: added.source_id, domain: 'biographical' });
      expect(tasks.tasks).toHaveLength(tasks.total_groups);
      expect((await server.call('GET', `/sources/${added.source_id}`, { cookie })).body).toMatchObject({
        status: 'mcp_extracting',
      });
      expect((await server.call('GET', `/sources/${added.source_id}/extraction`, { cookie })).body).toMatchObject({
        has_extraction_job: true,
        total_chunks: tasks.total_groups,
      });
      for (const task of tasks.tasks) {
        expect(task.prompt).toContain('<numbered_sentences>');
        expect(task.prompt).toContain('E|name|type|aliases|confidence|sent_ref|description');
        const description =
          'a person named in the passage who worked on the Analytical Engine with the others named in these sentences of the document';
        const entities = await toolResult<{
          entities: { index: number; name: string }[];
          lines_rejected: number;
          next_prompt: string | null;
        }>(client, 'submit_chunk_extraction', {
          source_id: added.source_id,
          group_index: task.group_index,
          pass: 'entities',
          lines: [
            `E|Ada Lovelace|Person|Lovelace|0.95|S1-S2|English mathematician who worked with Charles Babbage in London and published the first algorithm, ${description}.`,
            `E|Charles Babbage|Person|Babbage|0.9|S1|Inventor who worked with Ada Lovelace in London on the design of the Analytical Engine, ${description}.`,
            'this line is not in the grammar',
          ],
        });
        expect(entities.lines_rejected).toBe(1);
        expect(entities.entities.map((entity) => entity.name)).toEqual(['Ada Lovelace', 'Charles Babbage']);
        expect(entities.next_prompt).toContain('R|source_index|target_index|type|confidence|sent_ref|justification');
        const relations = await toolResult<{ relationships: number; status: string }>(
          client,
          'submit_chunk_extraction',
          {
            source_id: added.source_id,
            group_index: task.group_index,
            pass: 'relationships',
            lines: [
              'R|0|1|collaborates_with|0.9|S1|S1 says Ada Lovelace worked with Charles Babbage in London, a direct working collaboration.',
            ],
          },
        );
        expect(relations).toMatchObject({ relationships: 1, status: 'completed' });
      }
      const done = await toolResult<{ source: { status: string } }>(client, 'finalize_extraction', {
        source_id: added.source_id,
        timeout_seconds: 60,
      });
      expect(done.source.status).toBe('committed');
      const ada = (await toolResult<{ matches: { id: string }[] }>(client, 'resolve_alias', { name: 'Ada Lovelace' }))
        .matches[0];
      const context = await toolResult<{
        edges: { relationship: string; node: { label: string } }[];
        citations: { source_id: string }[];
      }>(client, 'node_context', { node_id: ada.id });
      expect(context.edges.map((edge) => edge.node.label)).toContain('Charles Babbage');
      expect(context.citations.map((citation) => citation.source_id)).toContain(added.source_id);
    } finally {
      await setMode('read');
    }
  }, 90_000);

  it('takes a whole group in one call as the upstream tools send it, and reads a run under way in read mode', async () => {
    await setMode('write');
    let sourceId = '';
    try {
      const added = await toolResult<{ source_id: string }>(client, 'add_document', {
        text: "Rosalind Franklin worked with Maurice Wilkins at King's College London in 1951.",
        title: 'Franklin',
        extract_entities: false,
      });
      sourceId = added.source_id;
      await toolResult(client, 'wait_for_document', { source_id: sourceId, until: 'indexed' });
      const tasks = await toolResult<{ chunk_indices: number[]; total_chunks: number }>(
        client,
        'get_extraction_tasks',
        { source_id: sourceId, domain: 'biographical' },
      );
      expect(tasks.chunk_indices).toEqual([0]);
      const chunks = await toolResult<{ chunks: { index: number; text: string; sentences: { ref: string }[] }[] }>(
        client,
        'get_extraction_chunks',
        { source_id: sourceId, chunk_indices: [0] },
      );
      expect(chunks.chunks[0]).toMatchObject({ index: 0, sentences: [{ ref: 'S1' }] });
      expect(chunks.chunks[0].text).toContain('Rosalind Franklin');

      await setMode('read');
      const read = await toolResult<{ job_id: string; chunk_indices: number[] }>(client, 'get_extraction_tasks', {
        source_id: sourceId,
      });
      expect(read.chunk_indices).toEqual([0]);
      expect(await toolResult(client, 'get_extraction_progress', { source_id: sourceId })).toMatchObject({
        submitted_indices: [],
        missing_indices: [0],
        ready_to_finalize: false,
      });
      await setMode('write');

      const why =
        "a scientist named in the passage who worked at King's College London on the structure of DNA in 1951";
      const submitted = await toolResult<{
        chunks_submitted: number;
        chunks_total: number;
        ready_to_finalize: boolean;
        relationships: number;
        relationships_left_out: number;
      }>(client, 'submit_chunk_extraction', {
        source_id: sourceId,
        chunk_group_index: 0,
        entities_text: [
          `E|1951|Date||0.2|S1|${why}, a year and nothing else in this sentence of the document.`,
          `E|Rosalind Franklin|Person|Franklin|0.95|S1|Chemist, ${why}.`,
          `E|Maurice Wilkins|Person|Wilkins|0.9|S1|Physicist, ${why}.`,
        ].join('\n'),
        // Numbered as the E lines are: 1 is Franklin, 2 is Wilkins; 0 is whatever the harvest makes of the year.
        relationships_text:
          "R|1|2|collaborates_with|0.9|S1|S1 says Rosalind Franklin worked with Maurice Wilkins at King's College London.",
      });
      expect(submitted).toMatchObject({
        chunks_submitted: 1,
        chunks_total: 1,
        ready_to_finalize: true,
        relationships: 1,
      });
      const done = await toolResult<{ source: { status: string } }>(client, 'finalize_extraction', {
        source_id: sourceId,
        timeout_seconds: 60,
      });
      expect(done.source.status).toBe('committed');
      const franklin = (
        await toolResult<{ matches: { id: string }[] }>(client, 'resolve_alias', { name: 'Rosalind Franklin' })
      ).matches[0];
      const context = await toolResult<{ edges: { relationship: string; node: { label: string } }[] }>(
        client,
        'node_context',
        { node_id: franklin.id },
      );
      expect(context.edges.map((edge) => edge.node.label)).toContain('Maurice Wilkins');

      await setMode('read');
      const refused = await callTool(client, 'get_extraction_tasks', { source_id: sourceId });
      expect(refused).toMatchObject({ isError: true, body: { status: 403 } });
    } finally {
      await setMode('read');
    }
  }, 90_000);

  it('stops an agent extraction on DELETE /sources/{id}/extraction: the source is indexed again and can be restarted', async () => {
    await setMode('write');
    try {
      const added = await toolResult<{ source_id: string }>(client, 'add_document', {
        text: 'Alan Turing worked at Bletchley Park with Joan Clarke in 1941.',
        title: 'Turing',
        extract_entities: false,
      });
      await toolResult(client, 'wait_for_document', { source_id: added.source_id, until: 'indexed' });
      const started = await toolResult<{ job_id: string }>(client, 'get_extraction_tasks', {
        source_id: added.source_id,
        domain: 'biographical',
      });
      await toolResult(client, 'submit_chunk_extraction', {
        source_id: added.source_id,
        group_index: 0,
        pass: 'entities',
        lines: [
          'E|Alan Turing|Person|Turing|0.9|S1|Mathematician who worked at Bletchley Park with Joan Clarke during the war, breaking ciphers.',
          'E|Joan Clarke|Person|Clarke|0.9|S1|Cryptanalyst who worked at Bletchley Park with Alan Turing during the war, breaking ciphers.',
        ],
      });

      expect((await server.call('DELETE', `/sources/${added.source_id}/extraction`, { cookie })).status).toBe(204);
      expect((await server.call('GET', `/sources/${added.source_id}`, { cookie })).body).toMatchObject({
        status: 'indexed',
        extraction_job_id: null,
      });
      const groups = (await server.call('GET', `/sources/${added.source_id}/extraction/tasks`, { cookie })).body as {
        data: { status: string }[];
      };
      expect(groups.data.map((group) => group.status)).toEqual(groups.data.map(() => 'cancelled'));
      const late = await callTool(client, 'submit_chunk_extraction', {
        source_id: added.source_id,
        group_index: 0,
        pass: 'relationships',
        lines: [],
      });
      expect(late).toMatchObject({ isError: true, body: { status: 409 } });

      const restarted = await toolResult<{ job_id: string; tasks: { next_pass: string }[] }>(
        client,
        'get_extraction_tasks',
        { source_id: added.source_id, domain: 'biographical' },
      );
      expect(restarted.job_id).not.toBe(started.job_id);
      expect(restarted.tasks[0].next_pass).toBe('entities');
      expect((await server.call('DELETE', `/sources/${added.source_id}/extraction`, { cookie })).status).toBe(204);
    } finally {
      await setMode('read');
    }
  });

  it('moves an agent extraction left untouched for mcp.abandon_after_hours to error with the reason', async () => {
    await setMode('write');
    try {
      const added = await toolResult<{ source_id: string }>(client, 'add_document', {
        text: 'Grace Hopper worked on the Harvard Mark I computer in 1944.',
        title: 'Hopper',
        extract_entities: false,
      });
      await toolResult(client, 'wait_for_document', { source_id: added.source_id, until: 'indexed' });
      await toolResult(client, 'get_extraction_tasks', { source_id: added.source_id, domain: 'biographical' });
      const { default: knex } = await import('knex');
      const db = knex({
        client: 'sqlite3',
        connection: { filename: path.join(server.dataDir, 'databases', 'default', 'app.db') },
        useNullAsDefault: true,
      });
      await db('sources')
        .where({ id: added.source_id })
        .update({ last_activity_at: new Date(Date.now() - 7 * 3_600_000).toISOString() });
      await db.destroy();
      const refused = await callTool(client, 'submit_chunk_extraction', {
        source_id: added.source_id,
        group_index: 0,
        pass: 'entities',
        lines: [],
      });
      expect(refused).toMatchObject({ isError: true, body: { status: 409 } });
      const source = (await server.call('GET', `/sources/${added.source_id}`, { cookie })).body as SourceResponseBody;
      expect(source).toMatchObject({ status: 'error' });
      expect(source.error_message).toContain('mcp.abandon_after_hours');
    } finally {
      await setMode('read');
    }
  });
});

describe('MCP agent extractions nobody comes back to', () => {
  it('are moved to error by the background sweep, with no agent calling in', async () => {
    let server = await startTestServer();
    try {
      const cookie = await setUpAccount(server);
      const key = (
        (await server.call('POST', '/auth/keys', { cookie, body: { name: 'agent' } })).body as { key: string }
      ).key;
      expect((await server.call('PATCH', '/settings', { cookie, body: { mcp: { mode: 'write' } } })).status).toBe(200);
      const client = await connectHttp(server, key);
      const added = await toolResult<{ source_id: string }>(client, 'add_document', {
        text: 'Grace Hopper worked on the Harvard Mark I computer in 1944.',
        title: 'Hopper',
        extract_entities: false,
      });
      await toolResult(client, 'wait_for_document', { source_id: added.source_id, until: 'indexed' });
      await toolResult(client, 'get_extraction_tasks', { source_id: added.source_id, domain: 'biographical' });
      await client.close();
      await server.stop();

      const { default: knex } = await import('knex');
      const db = knex({
        client: 'sqlite3',
        connection: { filename: path.join(server.dataDir, 'databases', 'default', 'app.db') },
        useNullAsDefault: true,
      });
      await db('sources')
        .where({ id: added.source_id })
        .update({ last_activity_at: new Date(Date.now() - 7 * 3_600_000).toISOString() });
      await db.destroy();
      server = await startTestServer({ dataDir: server.dataDir });
      const source = await waitForSource(server, cookie, added.source_id, ['error'], 30_000);
      expect(source.error_message).toContain('mcp.abandon_after_hours');
      const progress = (await server.call('GET', `/sources/${added.source_id}/extraction`, { cookie })).body as {
        status: string;
      };
      expect(progress.status).toBe('failed');
    } finally {
      await server.stop();
    }
  }, 90_000);
});
