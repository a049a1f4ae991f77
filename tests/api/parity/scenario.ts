import type { Answer, Side, Step } from './pair.ts';
import { until, waitForTask } from '../../support/wait.ts';

/**
 * The scripted scenario both servers go through, in order: an account, sources uploaded and extracted
 * by the builtin offline model, the graph's writes and reads, search in every mode, chats, templates,
 * automation, tags, databases, settings, the queue, backups and CCX packages. Each step names the ids
 * its answer carries, so later steps address the same things on both servers.
 */

export const documents = [
  {
    name: 'curie.txt',
    content: [
      'Marie Curie was a physicist and chemist who worked in Paris.',
      'Marie Curie married Pierre Curie in 1895.',
      'Pierre Curie was a French physicist.',
      'Marie Curie won the Nobel Prize in Physics in 1903 with Pierre Curie and Henri Becquerel.',
    ].join('\n\n'),
  },
  {
    name: 'lovelace.txt',
    content: [
      'Ada Lovelace was an English mathematician who worked with Charles Babbage in London.',
      'Charles Babbage designed the Analytical Engine.',
      'Ada Lovelace wrote the first published algorithm for the Analytical Engine.',
    ].join('\n\n'),
  },
  {
    name: 'turing.txt',
    content: [
      'Alan Turing was a British mathematician who worked at Bletchley Park.',
      'Alan Turing proposed the Turing machine in 1936.',
      'Alan Turing studied at Cambridge University.',
    ].join('\n\n'),
  },
];

const call = (side: Side) => (method: string, apiPath: string) =>
  side.server.call(method, apiPath, { cookie: side.cookie });

export async function taskDone(side: Side, taskId: string | undefined): Promise<void> {
  if (taskId) await waitForTask(call(side), taskId, { timeoutMs: 60_000 });
}

const taskOf = (answer: Answer) => (answer.body as { task_id?: string } | null)?.task_id;

async function settled(side: Side, sourceId: string): Promise<void> {
  await until(
    async () => {
      const source = (await call(side)('GET', `/sources/${sourceId}`)).body as { status: string };
      return ['committed', 'error', 'awaiting_confirmation', 'ready'].includes(source.status);
    },
    { timeoutMs: 90_000, intervalMs: 50, what: `source ${sourceId} to settle on ${side.backend}` },
  );
}

function textForm(files: { name: string; content: string }[], field: string, fields: Record<string, string>) {
  return () => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    for (const file of files) form.append(field, new Blob([file.content]), file.name);
    return form;
  };
}

const idOf = (body: { id?: string }) => body.id;
const person = 'system_template_person';

/** The sources, extracted and committed, and the reads of what that made. */
export const sourceSteps: Step[] = [
  { method: 'GET', path: '/auth/status', compare: 'content' },
  {
    method: 'POST',
    path: '/sources/batch',
    form: textForm(documents, 'files', { auto_confirm: 'true' }),
    expect: 202,
    save: (body: { files: { id: string; filename: string }[] }) =>
      Object.fromEntries(body.files.map((file) => [file.filename.replace('.txt', ''), file.id])),
    after: async (side) => {
      for (const name of ['curie', 'lovelace', 'turing']) await settled(side, side.ids.get(name)!);
    },
  },
  {
    method: 'POST',
    path: '/sources',
    form: textForm(
      [{ name: 'held.txt', content: 'Grace Hopper wrote the first compiler at Remington Rand.' }],
      'file',
      {
        auto_confirm: 'false',
      },
    ),
    save: (body: { id?: string; source?: { id: string } }) => ({ held: body.id ?? body.source?.id }),
    after: async (side) => settled(side, side.ids.get('held')!),
  },
  { method: 'GET', path: '/sources?page=1&page_size=50', compare: 'content', view: titles },
  { method: 'GET', path: '/sources/stats' },
  { method: 'GET', path: '/sources/{curie}', compare: 'content', view: pick('title', 'status', 'chunk_count') },
  { method: 'PATCH', path: '/sources/{turing}', body: { title: 'Turing notes', user_metadata: { kind: 'bio' } } },
  {
    method: 'GET',
    path: '/sources/{curie}/chunks',
    compare: 'content',
    view: (body: { data?: { text?: string; content?: string }[] }) => body.data?.map((c) => c.text ?? c.content),
    save: (body: { data?: { id: string }[] }) => ({ chunk: body.data?.[0]?.id }),
  },
  { method: 'GET', path: '/sources/{curie}/chunks/{chunk}' },
  { method: 'GET', path: '/sources/{curie}/stats' },
  { method: 'GET', path: '/sources/{curie}/citations' },
  { method: 'GET', path: '/sources/{curie}/original', compare: 'status' },
  { method: 'GET', path: '/sources/{curie}/extraction' },
  { method: 'GET', path: '/sources/{curie}/extraction/tasks' },
  { method: 'GET', path: '/sources/{curie}/extraction/filteringlog' },
  { method: 'GET', path: '/sources/{curie}/extraction/stats' },
  { method: 'GET', path: '/sources/{curie}/extraction/charts' },
  { method: 'GET', path: '/sources/{curie}/llm_metrics' },
  { method: 'GET', path: '/sources/{curie}/llm_metrics/calls' },
  { method: 'GET', path: '/sources/{curie}/recovery_events' },
  {
    method: 'GET',
    path: '/sources/{curie}/chunks/0/attempts',
    save: (body: { data?: { id: string }[] }) => ({ attempt: body.data?.[0]?.id }),
  },
  { method: 'GET', path: '/sources/{curie}/chunks/0/attempts/{attempt}' },
  {
    method: 'POST',
    path: '/sources/{curie}/chunks/0/rerun',
    body: {},
    after: async (side, answer) => {
      await taskDone(side, taskOf(answer));
      await settled(side, side.ids.get('curie')!);
    },
  },
  {
    method: 'POST',
    path: '/sources/{curie}/chunks/rerun',
    body: { chunk_indexes: [0] },
    after: async (side, answer) => {
      await taskDone(side, taskOf(answer));
      await settled(side, side.ids.get('curie')!);
    },
  },
  {
    method: 'POST',
    path: '/sources/{held}/confirmation',
    body: {},
    after: async (side) => settled(side, side.ids.get('held')!),
  },
  { method: 'POST', path: '/sources/confirmation', body: { source_ids: ['{{held}}'] } },
  {
    method: 'POST',
    path: '/sources/extraction',
    body: { source_ids: ['{{turing}}'], force: true },
    after: async (side, answer) => {
      await taskDone(side, taskOf(answer));
      await settled(side, side.ids.get('turing')!);
    },
  },
  { method: 'POST', path: '/sources/{held}/pause', body: { reason: 'parity' } },
  { method: 'POST', path: '/sources/{held}/resume' },
  { method: 'POST', path: '/sources/pause', body: { source_ids: ['{{held}}'] } },
  { method: 'POST', path: '/sources/resume', body: { source_ids: ['{{held}}'] } },
  { method: 'GET', path: '/sources/domains', compare: 'content' },
  {
    method: 'POST',
    path: '/sources/domains',
    body: { name: 'parity', copy_of: 'technical', description: 'for the parity run' },
  },
  { method: 'GET', path: '/sources/domains/parity' },
  { method: 'PUT', path: '/sources/domains/parity', body: { description: 'changed' } },
  { method: 'DELETE', path: '/sources/domains/parity' },
];

function titles(body: { data?: { title?: string }[] }) {
  return body.data?.map((item) => item.title).sort();
}

function pick(...keys: string[]) {
  return (body: Record<string, unknown>) => Object.fromEntries(keys.map((key) => [key, body?.[key]]));
}

export { call, idOf, person, settled, taskOf, textForm, titles, pick };
