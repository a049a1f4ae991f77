import type { Side, Step } from './pair.ts';
import { taskDone, taskOf } from './scenario.ts';
import { until, waitForTask } from '../../support/wait.ts';

/** The CCX package each server exported, imported back into it. */
const packages = new WeakMap<Side, Buffer>();
/** The workflow document each server exported, imported back under another name. */
const exported = new WeakMap<Side, unknown>();

const saveId = (name: string) => (body: { id?: string }) => ({ [name]: body.id });

async function chatIdle(side: Side): Promise<void> {
  await until(
    async () => {
      const chat = (await side.server.call('GET', `/chats/${side.ids.get('chat')}`, { cookie: side.cookie })).body as {
        status?: string;
      };
      return chat.status !== 'processing';
    },
    { timeoutMs: 60_000, intervalMs: 50, what: `the chat to answer on ${side.backend}` },
  );
}

function withoutOutputs(body: { data?: Record<string, unknown>[] }) {
  return body.data?.map(({ outputs: _outputs, ...execution }) => execution);
}

const step = (id: string, toolId: string, configuration: Record<string, unknown>) => ({
  id,
  name: id,
  tool_type: 'system_tool',
  tool_id: toolId,
  configuration,
});

/** Chats, automation, the account, settings, databases, the queue, quality, backups and packages. */
export const platformSteps: Step[] = [
  // chats
  { method: 'POST', path: '/chats', body: { title: 'Questions', source_ids: ['{{curie}}'] }, save: saveId('chat') },
  { method: 'POST', path: '/chats', body: { title: 'Scratch' }, save: saveId('scratch') },
  {
    method: 'GET',
    path: '/chats',
    compare: 'content',
    view: (b: { data?: { title: string }[] }) => b.data?.map((c) => c.title).sort(),
  },
  { method: 'GET', path: '/chats/stats/count', compare: 'content' },
  { method: 'GET', path: '/chats/starters' },
  { method: 'POST', path: '/chats/{chat}/send', body: { content: 'Who did Marie Curie marry?' }, after: chatIdle },
  { method: 'GET', path: '/chats/{chat}' },
  {
    method: 'GET',
    path: '/chats/{chat}/messages',
    save: (b: { data?: { id: string }[] }) => ({ message: b.data?.[0]?.id }),
  },
  { method: 'POST', path: '/chats/{chat}/messages', body: { role: 'user', content: 'A note' } },
  { method: 'PATCH', path: '/chats/{chat}', body: { title: 'Curie questions' } },
  { method: 'PATCH', path: '/chats/{chat}/scope', body: { source_ids: ['{{curie}}', '{{lovelace}}'] } },
  { method: 'DELETE', path: '/chats/{chat}/scope' },
  { method: 'GET', path: '/chats/{chat}/tool_approvals' },
  { method: 'POST', path: '/chats/{chat}/tool_decision', body: { tool_call_id: 'call_none', decision: 'approve' } },
  { method: 'POST', path: '/chats/{chat}/regenerate', after: chatIdle },
  { method: 'POST', path: '/chats/{chat}/retry', after: chatIdle },
  { method: 'POST', path: '/chats/{chat}/cancel' },
  { method: 'POST', path: '/chats/{chat}/generate_title', after: chatIdle },
  { method: 'GET', path: '/chats/{chat}/export', compare: 'status' },
  { method: 'GET', path: '/chats/{chat}/events', compare: 'status' },
  { method: 'PATCH', path: '/chats/{scratch}/status', body: { status: 'completed' } },
  { method: 'DELETE', path: '/chats/{scratch}' },

  // automation: tools, workflows, steps, executions, triggers
  {
    method: 'GET',
    path: '/tools/system',
    compare: 'content',
    view: (b: { data?: { id: string }[] } | unknown[]) => (Array.isArray(b) ? b.length : b.data?.length),
  },
  { method: 'GET', path: '/tools/system/data.merge' },
  {
    method: 'POST',
    path: '/tools',
    body: { name: 'Merger', system_tool_id: 'data.merge', configuration: {} },
    save: saveId('tool'),
  },
  { method: 'GET', path: '/tools' },
  { method: 'GET', path: '/tools/{tool}' },
  { method: 'PATCH', path: '/tools/{tool}', body: { description: 'merges' } },
  { method: 'GET', path: '/tools/stats/system_tool/data.merge' },
  {
    method: 'POST',
    path: '/workflows',
    body: {
      name: 'Merge things',
      category: 'parity',
      steps: [step('first', 'data.merge', { items: [{ a: 1 }] }), step('second', 'data.merge', { items: [{ b: 2 }] })],
    },
    save: saveId('workflow'),
  },
  {
    method: 'GET',
    path: '/workflows?page=1&page_size=10',
    compare: 'content',
    view: (b: { data?: { name: string }[] }) => b.data?.map((w) => w.name).sort(),
  },
  { method: 'GET', path: '/workflows/stats' },
  { method: 'GET', path: '/workflows/{workflow}' },
  { method: 'PATCH', path: '/workflows/{workflow}', body: { description: 'two merges' } },
  { method: 'GET', path: '/workflows/{workflow}/steps', compare: 'content' },
  { method: 'POST', path: '/workflows/{workflow}/steps', body: step('third', 'data.merge', { items: [{ c: 3 }] }) },
  { method: 'GET', path: '/workflows/{workflow}/steps/third' },
  { method: 'PATCH', path: '/workflows/{workflow}/steps/third', body: { description: 'the last' } },
  { method: 'PUT', path: '/workflows/{workflow}/steps/reorder', body: { step_order: ['second', 'first', 'third'] } },
  { method: 'DELETE', path: '/workflows/{workflow}/steps/third' },
  {
    method: 'POST',
    path: '/workflows/{workflow}/executions',
    body: { inputs: {} },
    save: (b: { execution_id?: string; id?: string }) => ({ execution: b.execution_id ?? b.id }),
    after: async (side) => {
      await until(
        async () => {
          const execution = (
            await side.server.call('GET', `/workflows/executions/${side.ids.get('execution')}`, { cookie: side.cookie })
          ).body as { status?: string };
          return !['pending', 'running', 'queued'].includes(execution.status ?? '');
        },
        { timeoutMs: 30_000, intervalMs: 50, what: 'the execution to end' },
      );
    },
  },
  // The system's own workflows (embedding runs) report what they found to do when they ran: timing, not storage.
  { method: 'GET', path: '/workflows/executions', view: withoutOutputs },
  {
    method: 'GET',
    path: '/workflows/executions/{execution}',
    compare: 'content',
    view: (b: { status?: string }) => b.status,
  },
  { method: 'GET', path: '/workflows/{workflow}/executions', view: withoutOutputs },
  { method: 'GET', path: '/workflows/{workflow}/executions/{execution}' },
  { method: 'POST', path: '/workflows/{workflow}/executions/{execution}/cancel' },
  { method: 'POST', path: '/workflows/executions/{execution}/cancel' },
  { method: 'GET', path: '/workflows/{workflow}/stats' },
  {
    method: 'GET',
    path: '/workflows/{workflow}/export',
    after: async (side, answer) => {
      exported.set(side, (answer.body as { data: unknown }).data);
    },
  },
  { method: 'POST', path: '/workflows/{workflow}/duplicate', save: saveId('copy') },
  {
    method: 'POST',
    path: '/workflows/import',
    body: (side: Side) => ({ workflow_data: exported.get(side), on_duplicate: 'rename' }),
    expect: 201,
  },
  {
    method: 'POST',
    path: '/triggers',
    body: { name: 'On node', event_source: 'node.create', filters: {}, workflow_id: '{{workflow}}' },
    save: saveId('trigger'),
  },
  {
    method: 'GET',
    path: '/triggers',
    compare: 'content',
    view: (b: { data?: { name: string }[] }) => b.data?.map((t) => t.name),
  },
  { method: 'GET', path: '/triggers/{trigger}' },
  { method: 'PATCH', path: '/triggers/{trigger}', body: { enabled: false } },
  { method: 'GET', path: '/triggers/{trigger}/stats' },
  { method: 'POST', path: '/triggers/{trigger}/fire', body: {} },
  { method: 'GET', path: '/workflows/{workflow}/triggers' },
  { method: 'DELETE', path: '/triggers/{trigger}' },
  { method: 'DELETE', path: '/workflows/{copy}' },
  { method: 'DELETE', path: '/tools/{tool}' },

  // quality
  {
    method: 'POST',
    path: '/quality/recalculate',
    body: {},
    after: async (side, answer) => taskDone(side, taskOf(answer)),
  },
  { method: 'GET', path: '/quality/sources/{curie}' },
  { method: 'GET', path: '/quality/sources/{curie}/details' },
  { method: 'GET', path: '/quality/outdated' },
  { method: 'POST', path: '/quality/analyze', body: {}, after: async (side, answer) => taskDone(side, taskOf(answer)) },
  { method: 'GET', path: '/quality/analyze' },
  { method: 'GET', path: '/quality/domains' },
  { method: 'GET', path: '/quality/summary' },

  // the account
  { method: 'GET', path: '/auth/verify' },
  { method: 'GET', path: '/auth/me', compare: 'content' },
  {
    method: 'POST',
    path: '/auth/keys',
    body: { name: 'ci' },
    save: (b: { id?: string; key_id?: string }) => ({ apikey: b.id ?? b.key_id }),
  },
  { method: 'GET', path: '/auth/keys' },
  { method: 'DELETE', path: '/auth/keys/{apikey}' },

  // settings
  { method: 'GET', path: '/settings' },
  { method: 'PATCH', path: '/settings', body: { chat: {} } },
  {
    method: 'GET',
    path: '/settings/presets',
    save: (b: { presets?: { name: string }[] }) => ({ preset: b.presets?.[0]?.name }),
  },
  { method: 'GET', path: '/settings/presets/{preset}' },
  { method: 'GET', path: '/settings/cloudmodels' },
  { method: 'GET', path: '/settings/cloudmodels/openai' },
  { method: 'GET', path: '/settings/embedding/models' },
  { method: 'GET', path: '/settings/logging/level', compare: 'content' },
  { method: 'POST', path: '/settings/logging/level', body: { level: 'INFO' } },
  { method: 'GET', path: '/settings/tls/status', compare: 'content' },
  { method: 'GET', path: '/settings/tls/certificate', compare: 'status' },
  { method: 'POST', path: '/settings/seed/templates' },
  { method: 'POST', path: '/settings/cleanup/orphans' },
  { method: 'POST', path: '/sources/cleanup/orphan_tasks' },
  { method: 'GET', path: '/settings/localllm/models', upstream: true },

  // databases
  {
    method: 'GET',
    path: '/databases',
    compare: 'content',
    view: (b: { databases?: { name: string }[] }) => b.databases?.map((d) => d.name),
  },
  { method: 'POST', path: '/databases', body: { name: 'notes' } },
  { method: 'GET', path: '/databases/notes' },
  { method: 'PATCH', path: '/databases/current', body: { name: 'notes' } },
  { method: 'GET', path: '/databases/current', compare: 'content' },
  { method: 'GET', path: '/counts', compare: 'content' },
  { method: 'PATCH', path: '/databases/current', body: { name: 'default' } },
  { method: 'DELETE', path: '/databases/notes' },

  // the queue, the system, logs, LLM bookkeeping
  { method: 'GET', path: '/queue/stats' },
  { method: 'GET', path: '/queue/stats/extraction' },
  { method: 'GET', path: '/queue/health', compare: 'status' },
  {
    method: 'GET',
    path: '/queue/tasks?page=1&page_size=5',
    save: (b: { data?: { task_id: string }[] }) => ({ task: b.data?.[0]?.task_id }),
  },
  { method: 'GET', path: '/queue/tasks/{task}' },
  { method: 'GET', path: '/queue/tasks/{task}/result', compare: 'status' },
  { method: 'POST', path: '/queue/reconcile', body: {} },
  { method: 'POST', path: '/queue/tasks/cancel', body: { task_ids: [] } },
  { method: 'GET', path: '/system/processing/status', compare: 'content' },
  { method: 'POST', path: '/system/processing/pause', body: { reason: 'parity' } },
  { method: 'POST', path: '/system/processing/resume' },
  { method: 'GET', path: '/system/processing/events?limit=5' },
  { method: 'GET', path: '/system/dashboard' },
  { method: 'GET', path: '/health', compare: 'status' },
  { method: 'GET', path: '/edition', compare: 'content' },
  { method: 'GET', path: '/counts', compare: 'content' },
  { method: 'GET', path: '/logs?lines=5', compare: 'status' },
  { method: 'GET', path: '/logs/status', compare: 'status' },
  { method: 'GET', path: '/diagnostics/export', compare: 'status' },
  { method: 'GET', path: '/llm/health', compare: 'status' },
  { method: 'GET', path: '/llm/status' },
  { method: 'GET', path: '/llm/stats' },
  {
    method: 'GET',
    path: '/llm/tasks',
    save: (b: { data?: { task_id: string }[] }) => ({ llmtask: b.data?.[0]?.task_id }),
  },
  { method: 'GET', path: '/llm/tasks/{llmtask}', compare: 'status' },
  { method: 'GET', path: '/events', compare: 'status' },
  { method: 'GET', path: '/openai/v1/models', compare: 'content' },
  {
    method: 'POST',
    path: '/openai/v1/chat/completions',
    body: { model: 'rhizome', messages: [{ role: 'user', content: 'Who was Alan Turing?' }] },
    compare: 'status',
  },
  { method: 'POST', path: '/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, compare: 'status' },

  // backups and packages
  { method: 'POST', path: '/backup', save: (b: { filename?: string }) => ({ backup: b.filename }) },
  { method: 'GET', path: '/backup' },
  { method: 'GET', path: '/backup/{backup}' },
  { method: 'GET', path: '/backup/{backup}/download', compare: 'status' },
  {
    method: 'POST',
    path: '/exports',
    save: (b: { task_id?: string }) => ({ export: b.task_id }),
    after: async (side, answer) => {
      const task = await waitForTask(
        (method, apiPath) => side.server.call(method, apiPath, { cookie: side.cookie }),
        taskOf(answer)!,
        { timeoutMs: 60_000 },
      );
      packages.set(side, Buffer.from((task.result as { content: string }).content, 'base64'));
    },
  },
  { method: 'GET', path: '/exports/{export}/download', compare: 'status' },
  {
    method: 'POST',
    path: '/exports/by_sources',
    body: { source_ids: ['{{curie}}'] },
    after: async (side, answer) => taskDone(side, taskOf(answer)),
  },
  {
    method: 'POST',
    path: '/exports/import?merge=true',
    form: (side) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(packages.get(side) ?? Buffer.alloc(0))]), 'package.ccx');
      return form;
    },
    after: async (side, answer) => taskDone(side, taskOf(answer)),
  },
];
