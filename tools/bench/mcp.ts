/**
 * bench:mcp (issue 23): the MCP server's tool-call round trip against the REST API's, same server, same run.
 * - graph_search vs GET /search?search_type=graph, node_context vs its three REST reads (node, neighbours,
 *   citations, sent at once), over Streamable HTTP with one open session, alternating which goes first;
 *   target: MCP p50 at most 1.3× REST p50.
 * - the same two tools over stdio: `rhizome mcp --url` relaying to the server, and `rhizome mcp` serving
 *   the data directory itself once the server is stopped.
 * - 20 sessions at once, each initialising and calling both tools: every call must succeed.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startBenchServer } from './api-client.ts';

const warmup = 5;
const samples = Number(process.env.BENCH_MCP_SAMPLES ?? 60);
const concurrentSessions = 20;
const callsPerSession = 5;
const target = 1.3;
const question = 'Who did Marie Curie work with in Paris?';
const bin = path.resolve(import.meta.dirname, '../../packages/cli/bin/rhizome.mjs');

const people = [
  'Marie Curie',
  'Pierre Curie',
  'Paul Langevin',
  'Henri Becquerel',
  'Irène Joliot-Curie',
  'Frédéric Joliot',
  'Ernest Rutherford',
  'Albert Einstein',
];
const places = ['Paris', 'Warsaw', 'Cambridge', 'Zurich', 'Sorbonne'];
const documents = people.map((person, index) => ({
  name: `${person.toLowerCase().replace(/\W+/g, '-')}.txt`,
  text: Array.from({ length: 6 }, (_, line) => {
    const other = people[(index + line + 1) % people.length];
    return `${person} worked with ${other} in ${places[(index + line) % places.length]} in ${1890 + index * 3 + line}. ${other} wrote to ${person} about radioactivity.`;
  }).join(' '),
}));

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];
const describe = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms   p95 ${percentile(values, 95).toFixed(1)} ms`;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** A tool call that must succeed. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0].text;
  if (result.isError) throw new Error(`${name}: ${text}`);
  return JSON.parse(text) as unknown;
}

async function connect(transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const bench = await startBenchServer('mcp');
const { key } = (await bench.expectOk('POST', '/auth/keys', { name: 'bench' }, 201)) as { key: string };
const endpoint = new URL(`${bench.base}/mcp`);
const httpTransport = () =>
  new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${key}` } } });

console.log(`building the graph from ${documents.length} documents …`);
for (const document of documents) {
  const form = new FormData();
  form.append('auto_confirm', 'true');
  form.append('domain', 'biographical');
  form.append('file', new Blob([document.text]), document.name);
  const response = await fetch(`${bench.base}/sources`, {
    method: 'POST',
    headers: { cookie: bench.cookie },
    body: form,
  });
  if (response.status !== 202 && response.status !== 201)
    throw new Error(`upload ${document.name}: ${response.status} ${await response.text()}`);
}
for (;;) {
  const { data } = (await bench.expectOk('GET', '/sources?page_size=100')) as { data: { status: string }[] };
  if (data.some((source) => source.status === 'error')) throw new Error('a source ended in error');
  if (data.every((source) => source.status === 'committed')) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const rest = async (apiPath: string) => {
  const response = await fetch(`${bench.base}${apiPath}`, { headers: { authorization: `Bearer ${key}` } });
  if (!response.ok) throw new Error(`GET ${apiPath}: ${response.status}`);
  return response.json() as Promise<unknown>;
};
const { data: found } = (await rest(
  `/search?${new URLSearchParams({ q: 'Marie Curie', search_type: 'keyword', limit: '5' })}`,
)) as { data: { node: { id: string; label: string } | null }[] };
const nodeId = found.find((item) => item.node?.label === 'Marie Curie')?.node?.id;
if (!nodeId) throw new Error('no Marie Curie node in the graph');
const { pagination } = (await rest('/nodes?page_size=1')) as { pagination: { total: number } };
console.log(`graph: ${pagination.total} nodes\n`);

const operations = {
  graph_search: {
    mcp: (client: Client) => call(client, 'graph_search', { query: question, limit: 10 }),
    rest: () => rest(`/search?${new URLSearchParams({ q: question, search_type: 'graph', limit: '10' })}`),
  },
  node_context: {
    mcp: (client: Client) => call(client, 'node_context', { node_id: nodeId }),
    rest: () =>
      Promise.all([
        rest(`/nodes/${nodeId}`),
        rest(`/graph/grounding/nodes/${nodeId}/neighbors?limit=25`),
        rest(`/nodes/${nodeId}/citations?page_size=10`),
      ]),
  },
};

/** Each tool over `client` `samples` times, after the warm-up. */
async function toolTimings(client: Client): Promise<Record<keyof typeof operations, number[]>> {
  const timings = { graph_search: [] as number[], node_context: [] as number[] };
  for (const [name, operation] of Object.entries(operations) as [
    keyof typeof operations,
    (typeof operations)[keyof typeof operations],
  ][]) {
    for (let index = 0; index < warmup + samples; index++) {
      const ms = await timed(() => operation.mcp(client));
      if (index >= warmup) timings[name].push(ms);
    }
  }
  return timings;
}

// 1. HTTP against REST, alternating.
const http = await connect(httpTransport());
const ratios: Record<string, number> = {};
console.log(`Streamable HTTP vs REST (${samples} calls each, one open session, ${warmup} warm-up calls):`);
for (const [name, operation] of Object.entries(operations)) {
  const timings = { mcp: [] as number[], rest: [] as number[] };
  for (let index = 0; index < warmup + samples; index++) {
    const order = index % 2 ? (['rest', 'mcp'] as const) : (['mcp', 'rest'] as const);
    for (const side of order) {
      const ms = await timed(() => (side === 'mcp' ? operation.mcp(http) : operation.rest()));
      if (index >= warmup) timings[side].push(ms);
    }
  }
  ratios[name] = percentile(timings.mcp, 50) / percentile(timings.rest, 50);
  console.log(`  ${name.padEnd(13)} MCP  ${describe(timings.mcp)}`);
  console.log(
    `  ${''.padEnd(13)} REST ${describe(timings.rest)}   MCP/REST p50 ${ratios[name].toFixed(2)}× (target ≤ ${target}×) ${ratios[name] <= target ? 'OK' : 'OVER'}`,
  );
}
await http.close();

// 2. Many sessions at once.
let failures = 0;
const calls: number[] = [];
const wall = await timed(() =>
  Promise.all(
    Array.from({ length: concurrentSessions }, async () => {
      try {
        const client = await connect(httpTransport());
        for (let index = 0; index < callsPerSession; index++) {
          calls.push(await timed(() => operations.graph_search.mcp(client)));
          calls.push(await timed(() => operations.node_context.mcp(client)));
        }
        await client.close();
      } catch (error) {
        failures += 1;
        console.error(`  session failed: ${String(error)}`);
      }
    }),
  ),
);
console.log(
  `\n${concurrentSessions} concurrent HTTP sessions, ${callsPerSession * 2} calls each: ${failures} failed sessions, ${calls.length} calls in ${wall.toFixed(0)} ms, per call ${describe(calls)} ${failures ? 'FAILED' : 'OK'}`,
);

// 3. stdio: relayed to the server, then serving the data directory itself.
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  RHIZOME_DATA_DIR: bench.dataDir,
  RHIZOME_CONFIG_DIR: path.join(bench.dataDir, 'config'),
  RHIZOME_LOG_LEVEL: 'warning',
};
delete env.RHIZOME_QUEUE_URL;
const stdio = (args: string[]) =>
  new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], env, stderr: 'ignore' });
const report = (label: string, timings: Record<string, number[]>) => {
  console.log(`\nstdio, ${label} (${samples} calls each):`);
  for (const [name, values] of Object.entries(timings)) console.log(`  ${name.padEnd(13)} ${describe(values)}`);
};
const relayed = await connect(stdio(['--url', bench.server.url, '--api-key', key]));
report('rhizome mcp --url (relayed to the server)', await toolTimings(relayed));
await relayed.close();
await bench.server.stop();
const direct = await connect(stdio([]));
report('rhizome mcp (the data directory itself)', await toolTimings(direct));
await direct.close();

const over = Object.entries(ratios).filter(([, ratio]) => ratio > target);
console.log(
  `\nMCP/REST p50 ratios: ${Object.entries(ratios)
    .map(([name, ratio]) => `${name} ${ratio.toFixed(2)}×`)
    .join(', ')}`,
);
process.exitCode = over.length || failures ? 1 : 0;
