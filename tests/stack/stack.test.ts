// Journeys through the supervised stack: real nginx, queue store, supervisord and the three services.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '@rhizome/core/storage';
import { useStack, waitFor } from './helpers.ts';

interface LogsStatus {
  available: boolean;
  services: { name: string; state: string; pid: number | null }[];
}

const proxyRefusal = '{"error":"authentication_required"}';
const account = { username: 'admin', password: 'correct-horse-battery' };

describe('the supervised stack through nginx', () => {
  const running = useStack('rhizome-stack-');
  let cookie = '';

  const send = (route: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
    fetch(`${running.stack.publicUrl}/api/v1${route}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const sessionCookie = (response: Response): string => {
    const header = response.headers.getSetCookie().find((c) => c.startsWith('cc_session='));
    expect(header, 'a cc_session cookie').toBeDefined();
    return header!.split(';')[0];
  };

  it('(a) reports setup needed on the public status endpoint', async () => {
    const response = await send('/auth/status');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ setup_needed: true, authenticated: false });
  });

  it('(b) refuses an unauthenticated request at the proxy', async () => {
    const response = await send('/auth/me');
    expect(response.status).toBe(401);
    expect(await response.text()).toBe(proxyRefusal);
  });

  it('(c) sets up the account and authenticates with the session cookie', async () => {
    const setup = await send('/auth/setup', { method: 'POST', body: account });
    expect(setup.status).toBe(201);
    cookie = sessionCookie(setup);
    const me = await send('/auth/me', { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ username: account.username });
  });

  it('(d) accepts an API key until it is revoked', async () => {
    const created = await send('/auth/keys', {
      method: 'POST',
      headers: { Cookie: cookie },
      body: { name: 'stack-test' },
    });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; name: string; key: string };
    expect(key.key).toMatch(/^cc_live_/);
    const bearer = { Authorization: `Bearer ${key.key}` };

    const me = await send('/auth/me', { headers: bearer });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ username: account.username });

    expect((await send(`/auth/keys/${key.id}`, { method: 'DELETE', headers: { Cookie: cookie } })).status).toBe(204);
    const refused = await send('/auth/me', { headers: bearer });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe(proxyRefusal);
  });

  it('(e) refuses the old cookie right after logout', async () => {
    expect((await send('/auth/logout', { method: 'POST', headers: { Cookie: cookie } })).status).toBe(204);
    const refused = await send('/auth/me', { headers: { Cookie: cookie } });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe(proxyRefusal);
  });

  it('(f) ignores a forged X-Auth-User sent straight to cortex-api', async () => {
    const response = await fetch(`${running.stack.apiDirectUrl}/api/v1/auth/me`, {
      headers: { 'X-Auth-User': account.username },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'AUTH_REQUIRED' });
  });

  it('(g) reports the supervised processes and sees auth-verify restarted after a kill', async () => {
    const login = await send('/auth/login', { method: 'POST', body: account });
    expect(login.status).toBe(200);
    cookie = sessionCookie(login);
    const status = async (): Promise<LogsStatus | undefined> => {
      const response = await send('/logs/status', { headers: { Cookie: cookie } }).catch(() => undefined);
      return response?.status === 200 ? ((await response.json()) as LogsStatus) : undefined;
    };

    const before = await status();
    expect(before?.available).toBe(true);
    for (const name of ['cortex-api', 'neuron-worker', 'auth-verify', 'nginx', 'valkey']) {
      const service = before!.services.find((s) => s.name === name);
      expect(service, name).toMatchObject({ state: 'RUNNING' });
      expect(service!.pid, name).toBeGreaterThan(0);
    }

    const killed = before!.services.find((s) => s.name === 'auth-verify')!.pid!;
    process.kill(killed, 'SIGKILL');
    const restarted = await waitFor(
      async () => {
        const service = (await status())?.services.find((s) => s.name === 'auth-verify');
        return service?.state === 'RUNNING' && service.pid !== killed ? service : undefined;
      },
      15_000,
      'auth-verify to be RUNNING with a new pid',
    );
    expect(restarted.pid).toBeGreaterThan(0);
  }, 30_000);

  it('(h) passes the API description without credentials and answers errors of the API server unchanged', async () => {
    const document = await send('/openapi.json');
    expect(document.status).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toBe('3.1.0');
    const wrongPassword = await send('/auth/login', {
      method: 'POST',
      body: { ...account, password: 'not the password' },
    });
    expect(wrongPassword.status).toBe(401);
    expect(await wrongPassword.json()).toMatchObject({ error: 'HTTP_401' });
    const again = await send('/auth/setup', { method: 'POST', body: account });
    expect(again.status).toBe(409);
  });

  it('(i) ends every session at once on password and username changes', async () => {
    const first = sessionCookie(await send('/auth/login', { method: 'POST', body: account }));
    const wrong = await send('/auth/password', {
      method: 'POST',
      headers: { Cookie: first },
      body: { old_password: 'nope nope', new_password: 'another-password' },
    });
    expect(wrong.status).toBe(403);
    const changed = await send('/auth/password', {
      method: 'POST',
      headers: { Cookie: first },
      body: { old_password: account.password, new_password: 'another-password' },
    });
    expect(changed.status).toBe(204);
    expect(await (await send('/auth/me', { headers: { Cookie: first } })).text()).toBe(proxyRefusal);

    const second = sessionCookie(
      await send('/auth/login', { method: 'POST', body: { ...account, password: 'another-password' } }),
    );
    const renamed = await send('/auth/username', {
      method: 'POST',
      headers: { Cookie: second },
      body: { password: 'another-password', new_username: 'operator2' },
    });
    expect(renamed.status).toBe(200);
    const fresh = sessionCookie(renamed);
    expect((await send('/auth/me', { headers: { Cookie: second } })).status).toBe(401);
    const me = await send('/auth/me', { headers: { Cookie: fresh } });
    expect(await me.json()).toEqual({ username: 'operator2' });
  });

  it('(j) finishes a task whose neuron-worker was killed mid-run, after supervisord restarts it', async () => {
    // Kept for (k): the login rate limit (5 a minute per address) allows no further login in this run.
    cookie = sessionCookie(
      await send('/auth/login', { method: 'POST', body: { username: 'operator2', password: 'another-password' } }),
    );
    const headers = { Cookie: cookie };
    const submitted = await send('/queue/tasks', {
      method: 'POST',
      headers,
      body: { queue: 'operations', operation: 'system.sleep', data: { ms: 3000 } },
    });
    expect(submitted.status).toBe(201);
    const { task_id } = (await submitted.json()) as { task_id: string };
    const task = async () =>
      (await (await send(`/queue/tasks/${task_id}`, { headers })).json()) as { status: string; attempts: number };
    await waitFor(async () => ((await task()).status === 'running' ? true : undefined), 15_000, 'the task to run');

    const status = (await (await send('/logs/status', { headers })).json()) as LogsStatus;
    const killed = status.services.find((s) => s.name === 'neuron-worker')!.pid!;
    process.kill(killed, 'SIGKILL');
    const done = await waitFor(
      async () => {
        const current = await task();
        return current.status === 'completed' ? current : undefined;
      },
      45_000,
      'the task to complete on the restarted worker',
    );
    expect(done.attempts).toBe(2);
    const after = (await (await send('/logs/status', { headers })).json()) as LogsStatus;
    const worker = after.services.find((s) => s.name === 'neuron-worker')!;
    expect(worker.state).toBe('RUNNING');
    expect(worker.pid).not.toBe(killed);
  }, 60_000);

  it('(k) indexes a source whose neuron-worker was killed mid-indexing, every chunk stored once and searchable', async () => {
    const headers = { Cookie: cookie };
    const marker = 'Quillonbrae lighthouse keeper Ysolde Varnack';
    const form = new FormData();
    form.append('auto_confirm', 'true');
    // Indexing only: with extraction the source would move on from `indexed` by itself.
    form.append('extract_entities', 'false');
    form.append('file', new Blob([variedText(6_000_000, marker)]), 'long-chronicle.txt');
    const uploaded = await fetch(`${running.stack.publicUrl}/api/v1/sources`, { method: 'POST', headers, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(202);
    const { id } = (await uploaded.json()) as { id: string };
    const source = async () => (await (await send(`/sources/${id}`, { headers })).json()) as Source;

    // Mid-way: every chunk is stored and embedding is under way (several seconds here), so the killed
    // run leaves chunks, some of their embeddings and vector index entries behind.
    await waitFor(
      async () => {
        const current = await source();
        if (current.status !== 'indexing' && current.status !== 'pending')
          throw new Error(`the source reached ${current.status} before the kill`);
        return current.current_step === 'embedding' ? current : undefined;
      },
      30_000,
      'the source to be embedding',
    );
    const status = (await (await send('/logs/status', { headers })).json()) as LogsStatus;
    const killed = status.services.find((s) => s.name === 'neuron-worker')!.pid!;
    process.kill(killed, 'SIGKILL');
    const interrupted = await source();
    expect(interrupted).toMatchObject({ status: 'indexing', current_step: 'embedding' });
    expect(interrupted.embedded_chunk_count).toBeLessThan(interrupted.chunk_count);

    const indexed = await waitFor(
      async () => {
        const current = await source();
        if (current.status === 'error')
          throw new Error(`the source failed: ${current.error_stage}: ${current.error_message}`);
        return current.status === 'indexed' ? current : undefined;
      },
      120_000,
      'the source to be indexed on the restarted worker',
    );
    expect(indexed.chunk_count).toBeGreaterThan(0);
    expect(indexed.embedded_chunk_count).toBe(indexed.chunk_count);

    const chunks: Chunk[] = [];
    for (let page = 1; ; page++) {
      const body = (await (await send(`/sources/${id}/chunks?page=${page}&page_size=1000`, { headers })).json()) as {
        data: Chunk[];
        pagination: { total: number; has_next: boolean };
      };
      expect(body.pagination.total).toBe(indexed.chunk_count);
      chunks.push(...body.data);
      if (!body.pagination.has_next) break;
    }
    expect(chunks).toHaveLength(indexed.chunk_count);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(chunks.length);
    expect(chunks.map((chunk) => chunk.chunk_index)).toEqual(chunks.map((_, index) => index));
    expect(chunks.some((chunk) => chunk.content.includes(marker))).toBe(true);

    // Searchable: the full-text index holds each chunk once, and finds the marker in this source.
    const db = openSqlite(path.join(running.dataDir, 'databases', 'default', 'app.db'));
    try {
      const [indexedRows] = (await db.raw(
        'SELECT COUNT(*) AS n FROM fts_chunks WHERE rowid IN (SELECT rowid FROM document_chunks WHERE source_id = ?)',
        [id],
      )) as { n: number }[];
      expect(indexedRows.n).toBe(indexed.chunk_count);
      const [allIndexed] = (await db.raw(
        'SELECT (SELECT COUNT(*) FROM fts_chunks) AS fts, (SELECT COUNT(*) FROM document_chunks) AS chunks',
      )) as { fts: number; chunks: number }[];
      expect(allIndexed.fts).toBe(allIndexed.chunks);
      const found = (await db.raw(
        'SELECT c.source_id, c.content FROM fts_chunks JOIN document_chunks c ON c.rowid = fts_chunks.rowid WHERE fts_chunks MATCH \'"quillonbrae lighthouse" AND varnack\'',
      )) as { source_id: string; content: string }[];
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((row) => row.source_id === id && row.content.includes(marker))).toBe(true);
      const [embedded] = (await db.raw(
        'SELECT COUNT(*) AS n FROM chunk_vectors WHERE chunk_rowid IN (SELECT rowid FROM document_chunks WHERE source_id = ?)',
        [id],
      )) as { n: number }[];
      expect(embedded.n).toBe(indexed.chunk_count);
    } finally {
      await db.destroy();
    }

    const after = (await (await send('/logs/status', { headers })).json()) as LogsStatus;
    const worker = after.services.find((s) => s.name === 'neuron-worker')!;
    expect(worker.state).toBe('RUNNING');
    expect(worker.pid).not.toBe(killed);
  }, 150_000);

  it('(l) finishes an extraction whose neuron-worker was killed mid-way, without duplicate nodes', async () => {
    const headers = { Cookie: cookie };
    const form = new FormData();
    form.append('auto_confirm', 'true');
    form.append('domain', 'biographical');
    form.append('file', new Blob([biographies(160)]), 'biographies.txt');
    const uploaded = await fetch(`${running.stack.publicUrl}/api/v1/sources`, { method: 'POST', headers, body: form });
    expect(uploaded.status, await uploaded.clone().text()).toBe(202);
    const { id } = (await uploaded.json()) as { id: string };
    const progress = async () =>
      (await (await send(`/sources/${id}/extraction`, { headers })).json()) as {
        status: string;
        total_chunks: number;
        completed_chunks: number;
        failed_chunks: number;
      };

    await waitFor(
      async () => {
        const current = await progress();
        if (current.status === 'completed') throw new Error('the extraction finished before the kill');
        return current.completed_chunks >= 3 ? current : undefined;
      },
      60_000,
      'some groups to be extracted',
    );
    const status = (await (await send('/logs/status', { headers })).json()) as LogsStatus;
    process.kill(status.services.find((s) => s.name === 'neuron-worker')!.pid!, 'SIGKILL');

    const committed = await waitFor(
      async () => {
        const current = (await (await send(`/sources/${id}`, { headers })).json()) as Source & {
          extraction_entities_count: number;
        };
        if (current.status === 'error')
          throw new Error(`the source failed: ${current.error_stage}: ${current.error_message}`);
        return current.status === 'committed' ? current : undefined;
      },
      120_000,
      'the extraction to be committed on the restarted worker',
    );
    const done = await progress();
    expect(done).toMatchObject({ status: 'completed', failed_chunks: 0 });
    expect(done.completed_chunks).toBe(done.total_chunks);

    const db = openSqlite(path.join(running.dataDir, 'databases', 'default', 'app.db'));
    try {
      const duplicates = (await db.raw(
        'SELECT name_key, template_id, COUNT(*) AS n FROM graph_nodes WHERE extracted = 1 GROUP BY name_key, template_id HAVING n > 1',
      )) as unknown[];
      expect(duplicates).toEqual([]);
      const [linked] = (await db.raw('SELECT COUNT(*) AS n FROM node_sources WHERE source_id = ?', [id])) as {
        n: number;
      }[];
      expect(linked.n).toBe(committed.extraction_entities_count);
      expect(linked.n).toBeGreaterThan(0);
    } finally {
      await db.destroy();
    }
  }, 200_000);
});

interface Source {
  status: string;
  current_step: string | null;
  chunk_count: number;
  embedded_chunk_count: number;
  error_stage: string | null;
  error_message: string | null;
}

interface Chunk {
  id: string;
  chunk_index: number;
  content: string;
}

/** About `bytes` of varied made-up prose from a seeded generator (the same on every run), with `marker` in one sentence half-way. */
function variedText(bytes: number, marker: string): string {
  let seed = 0x5eed;
  const next = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const syllables = [
    'ka',
    'lo',
    'mer',
    'tin',
    'sa',
    'vor',
    'el',
    'dra',
    'qui',
    'ben',
    'shu',
    'ra',
    'ton',
    'fi',
    'gal',
    'wen',
    'op',
    'zed',
    'ny',
    'cor',
  ];
  const words = Array.from({ length: 3000 }, () =>
    Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(syllables)).join(''),
  );
  const sentence = () => {
    const text = Array.from({ length: 6 + Math.floor(next() * 14) }, () => pick(words)).join(' ');
    return `${text[0].toUpperCase()}${text.slice(1)}.`;
  };
  const paragraphs: string[] = [];
  let size = 0;
  let placed = false;
  while (size < bytes) {
    const sentences = Array.from({ length: 3 + Math.floor(next() * 6) }, sentence);
    if (!placed && size > bytes / 2) {
      sentences.splice(1, 0, `The ${marker} logged the storm of ${paragraphs.length}.`);
      placed = true;
    }
    const paragraph = sentences.join(' ');
    paragraphs.push(paragraph);
    size += paragraph.length + 2;
  }
  return paragraphs.join('\n\n');
}

/** `count` short biographies of made-up people with common names: enough extraction groups to kill the worker between them. */
function biographies(count: number): string {
  const first = [
    'John',
    'Mary',
    'Robert',
    'Patricia',
    'James',
    'Linda',
    'William',
    'Elizabeth',
    'David',
    'Susan',
    'Richard',
    'Margaret',
  ];
  const last = [
    'Smith',
    'Johnson',
    'Brown',
    'Taylor',
    'Anderson',
    'Thomas',
    'Jackson',
    'White',
    'Harris',
    'Martin',
    'Thompson',
    'Walker',
  ];
  const cities = ['London', 'Paris', 'Berlin', 'Madrid', 'Rome', 'Vienna', 'Dublin', 'Boston', 'Chicago', 'Toronto'];
  const person = (index: number) =>
    `${first[index % first.length]} ${last[Math.floor(index / first.length) % last.length]}`;
  return Array.from({ length: count }, (_, index) =>
    [
      `${person(index)} was born in ${cities[index % cities.length]} in ${1900 + (index % 80)}.`,
      `${person(index)} married ${person(index + 7)} in ${cities[(index + 3) % cities.length]}.`,
      `${person(index)} worked at the University of ${cities[(index + 5) % cities.length]} for many years and later moved to ${cities[(index + 1) % cities.length]}.`,
    ].join(' '),
  ).join('\n\n');
}
