import type { Answer, Side, Step } from './pair.ts';
import { person, pick, taskDone, taskOf } from './scenario.ts';
import { waitForTask } from '../../support/wait.ts';

/** A batch runs as a task: the reads after it wait for it, and it must have done every operation. */
async function batchDone(side: Side, answer: Answer): Promise<void> {
  const taskId = taskOf(answer);
  if (!taskId) return;
  const task = await waitForTask(
    (method, apiPath) => side.server.call(method, apiPath, { cookie: side.cookie }),
    taskId,
    { timeoutMs: 30_000 },
  );
  const result = task.result as { failed?: number } | null;
  if (task.status !== 'completed' || result?.failed)
    throw new Error(`batch on ${side.backend}: ${task.status} ${JSON.stringify(task.result)} ${task.error ?? ''}`);
}

const saveId = (name: string) => (body: { id?: string }) => ({ [name]: body.id });
const labels = (body: { data?: { label?: string }[] }) => body.data?.map((item) => item.label).sort();

/** Tags, templates, nodes, edges, merges, the graph's reads and search in every mode. */
export const graphSteps: Step[] = [
  { method: 'POST', path: '/sources/tags', body: { name: 'science', color: '#336699' }, save: saveId('stag') },
  { method: 'GET', path: '/sources/tags', compare: 'content' },
  { method: 'GET', path: '/sources/tags/{stag}', compare: 'content' },
  { method: 'PATCH', path: '/sources/tags/{stag}', body: { description: 'natural sciences' } },
  { method: 'POST', path: '/sources/{curie}/tags/{stag}' },
  { method: 'GET', path: '/sources/{curie}/tags', compare: 'content' },
  { method: 'POST', path: '/sources/bulk', body: { action: 'tag', source_ids: ['{{lovelace}}'], tag_id: '{{stag}}' } },
  { method: 'DELETE', path: '/sources/{lovelace}/tags/{stag}' },
  {
    method: 'POST',
    path: '/sources/bulk-jobs',
    body: { action: 'tag', source_ids: ['{{turing}}'], tag_id: '{{stag}}' },
    save: (body: { job_id?: string; id?: string }) => ({ bulkjob: body.job_id ?? body.id }),
  },
  { method: 'GET', path: '/sources/bulk-jobs/{bulkjob}', compare: 'status' },
  { method: 'POST', path: '/sources/bulk', body: { action: 'untag', source_ids: ['{{turing}}'], tag_id: '{{stag}}' } },

  // templates
  {
    method: 'GET',
    path: '/templates',
    compare: 'content',
    view: (b: { data?: { name: string }[] }) => b.data?.map((t) => t.name).sort(),
  },
  {
    method: 'POST',
    path: '/templates',
    body: { name: 'Machine', template_type: 'node', description: 'a machine', properties: [] },
    save: saveId('machine'),
  },
  { method: 'GET', path: '/templates/{machine}', compare: 'content' },
  { method: 'PATCH', path: '/templates/{machine}', body: { description: 'a computing machine' } },
  {
    method: 'POST',
    path: '/templates/batch',
    body: { operations: [{ operation: 'create', data: { name: 'Place', template_type: 'node' } }] },
    after: batchDone,
  },
  { method: 'POST', path: '/templates/embeddings', after: async (side, answer) => taskDone(side, taskOf(answer)) },

  // nodes
  {
    method: 'POST',
    path: '/nodes',
    body: { template_id: person, label: 'Grace Hopper', properties: { born: 1906 } },
    save: saveId('grace'),
  },
  {
    method: 'POST',
    path: '/nodes',
    body: { template_id: person, label: 'Rear Admiral Hopper' },
    save: saveId('hopper'),
  },
  {
    method: 'POST',
    path: '/nodes',
    body: { template_id: '{{machine}}', label: 'UNIVAC I', source_id: '{{curie}}' },
    save: saveId('univac'),
  },
  {
    method: 'POST',
    path: '/nodes/batch',
    body: { operations: [{ operation: 'create', data: { template_id: person, label: 'Howard Aiken' } }] },
    after: batchDone,
  },
  { method: 'GET', path: '/nodes?page=1&page_size=100', compare: 'content', view: labels },
  { method: 'GET', path: '/nodes/{grace}', compare: 'content', view: pick('label', 'template_id', 'properties') },
  { method: 'PATCH', path: '/nodes/{grace}', body: { properties: { born: 1906, field: 'computing' } } },
  { method: 'PATCH', path: '/nodes/{grace}/position', body: { position: { x: 10, y: 20 } } },
  { method: 'GET', path: '/nodes/{grace}/citations' },

  // node tags
  { method: 'POST', path: '/nodes/tags', body: { name: 'pioneer' }, save: saveId('ntag') },
  { method: 'GET', path: '/nodes/tags', compare: 'content' },
  { method: 'PATCH', path: '/nodes/tags/{ntag}', body: { color: '#aa0000' } },
  { method: 'POST', path: '/nodes/tags/{ntag}/nodes', body: { node_ids: ['{{grace}}'] } },
  { method: 'POST', path: '/nodes/{univac}/tags/{ntag}' },
  { method: 'DELETE', path: '/nodes/{univac}/tags/{ntag}' },

  // edges
  {
    method: 'POST',
    path: '/edges',
    body: {
      template_id: 'system_template_link',
      source_node_id: '{{grace}}',
      target_node_id: '{{univac}}',
      label: 'programmed',
    },
    save: saveId('edge'),
  },
  {
    method: 'POST',
    path: '/edges',
    body: {
      template_id: 'system_template_link',
      source_node_id: '{{hopper}}',
      target_node_id: '{{univac}}',
      label: 'used',
    },
  },
  {
    method: 'POST',
    path: '/edges/batch',
    body: {
      operations: [
        {
          operation: 'create',
          data: {
            template_id: 'system_template_link',
            source_node_id: '{{univac}}',
            target_node_id: '{{grace}}',
            label: 'built for',
          },
        },
      ],
    },
    after: batchDone,
  },
  { method: 'GET', path: '/edges?page=1&page_size=100', compare: 'content', view: labels },
  { method: 'GET', path: '/edges/labels', compare: 'content' },
  { method: 'GET', path: '/edges/{edge}', compare: 'content', view: pick('label', 'source_node_id', 'target_node_id') },
  { method: 'PATCH', path: '/edges/{edge}', body: { label: 'programmed first' } },
  { method: 'GET', path: '/edges/{edge}/citations' },
  { method: 'GET', path: '/nodes/{grace}/connections', compare: 'content' },

  // merge and undo
  {
    method: 'POST',
    path: '/nodes/{grace}/merge',
    body: { node_ids: ['{{hopper}}'] },
    save: (b: { merge_id?: string }) => ({ merge: b.merge_id }),
  },
  { method: 'GET', path: '/nodes/merges' },
  { method: 'POST', path: '/nodes/merges/{merge}/undo' },

  // the graph's reads
  { method: 'GET', path: '/graph/source_groups' },
  { method: 'GET', path: '/graph/canvas' },
  { method: 'POST', path: '/graph/snapshot/refresh', after: async (side, answer) => taskDone(side, taskOf(answer)) },
  { method: 'GET', path: '/graph/snapshot' },
  { method: 'GET', path: '/graph/grounding/nodes' },
  { method: 'GET', path: '/graph/grounding/nodes/{grace}' },
  { method: 'GET', path: '/graph/grounding/nodes/{grace}/neighbors' },
  { method: 'GET', path: '/graph/grounding/edges' },
  {
    method: 'GET',
    path: '/graph/duplicates?min_score=0.1&page_size=50',
    save: (b: { data?: { id: string }[] }) => ({ proposal: b.data?.[0]?.id }),
  },

  // search
  { method: 'POST', path: '/search/embeddings', after: async (side, answer) => taskDone(side, taskOf(answer)) },
  { method: 'GET', path: '/search/indexes/status' },
  { method: 'GET', path: '/search/stats' },
  ...(['keyword', 'semantic', 'hybrid', 'graph'] as const).map((mode): Step => ({
    method: 'GET',
    path: `/search?q=${encodeURIComponent('Curie physicist')}&search_type=${mode}&limit=8`,
    compare: mode === 'keyword' ? 'content' : 'shape',
    view: topResults,
  })),
  {
    method: 'GET',
    path: '/search?q=Babbage&search_type=keyword&source_ids={lovelace}',
    compare: 'content',
    view: topResults,
  },
  { method: 'GET', path: '/search?q=Grace&search_type=keyword&template_id=system_template_person', compare: 'shape' },
  { method: 'POST', path: '/search/indexes', after: async (side, answer) => taskDone(side, taskOf(answer)) },
];

/** The first results' titles or labels and kinds, in the order ranked. */
function topResults(body: { data?: { result_type: string; node?: { label?: string }; chunk?: { text?: string } }[] }) {
  return (body.data ?? [])
    .slice(0, 3)
    .map((item) => `${item.result_type}: ${item.node?.label ?? item.chunk?.text?.slice(0, 60) ?? ''}`);
}
