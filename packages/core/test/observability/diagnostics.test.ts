import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDiagnosticsZip, systemInfo, type DiagnosticsInput } from '../../src/observability/diagnostics.ts';

let logsDir = '';

beforeEach(() => {
  logsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-diagnostics-'));
});

afterEach(() => {
  fs.rmSync(logsDir, { recursive: true, force: true });
});

async function unzip(buffer: Buffer): Promise<Map<string, string>> {
  const zip = await JSZip.loadAsync(buffer);
  const entries = new Map<string, string>();
  for (const file of Object.values(zip.files)) {
    if (!file.dir) entries.set(file.name, await file.async('string'));
  }
  return entries;
}

function writeLog(service: string, lines: string[]): void {
  fs.writeFileSync(path.join(logsDir, `${service}.log`), lines.map((line) => `${line}\n`).join(''));
}

const sessionSecret = 'S3ssion-Secret-Value-0001';
const edgeToken = 'edge-token-value-0002';
const quotedPassword = 'pw"with\\quote-0003';

// Every value that must not survive anywhere in the bundle.
const planted = [
  sessionSecret,
  edgeToken,
  quotedPassword,
  JSON.stringify(quotedPassword).slice(1, -1),
  'sk-settings-0004',
  'deep-client-secret-0005',
  'array-password-0006',
  'registry-cred-0007',
  'cc_live_AbC-123_xyz0008',
  'eyJhbGciOiJIUzI1NiJ9.bearer-0009',
  'hunter2-0010',
  'query-token-0011',
  'log-api-key-0012',
  'escaped-pw-0013',
  'supervisor-pw-0014',
  'queue-pw-0015',
  'AbC-123_xyz0008',
];

function fullInput(): DiagnosticsInput {
  writeLog('cortex', [
    JSON.stringify({
      level: 'info',
      message: `session secret loaded: ${sessionSecret}`,
      timestamp: '2026-11-21T20:01:02.000Z',
    }),
    JSON.stringify({
      level: 'info',
      message: 'key in use: cc_live_AbC-123_xyz0008',
      timestamp: '2026-11-21T20:01:03.000Z',
    }),
    JSON.stringify({
      level: 'debug',
      message: 'upstream call',
      headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.bearer-0009' },
      timestamp: '2026-11-21T20:01:04.000Z',
    }),
    JSON.stringify({
      level: 'debug',
      message: 'llm call',
      api_key: 'log-api-key-0012',
      timestamp: '2026-11-21T20:01:05.000Z',
    }),
    JSON.stringify({
      level: 'debug',
      message: 'body {"password":"escaped-pw-0013"}',
      timestamp: '2026-11-21T20:01:06.000Z',
    }),
    'Error: connect failed password=hunter2-0010',
  ]);
  writeLog('nginx', [
    '2026/11/21 20:01:02 [error] 7#7: *1 upstream timed out, request: "GET /api/v1/health?token=query-token-0011 HTTP/1.1"',
    `2026/11/21 20:01:03 [warn] 7#7: edge token mismatch: ${edgeToken}`,
  ]);
  writeLog('valkey', ['12345:M 21 Nov 2026 20:01:02.123 * Ready to accept connections']);
  return {
    system: { rhizome_version: '1.2.3', note: `started with ${sessionSecret}` },
    settings: {
      llm: {
        provider: 'openai',
        api_key: 'sk-settings-0004',
        max_concurrency: 4,
        nested: {
          deep: { client_secret: 'deep-client-secret-0005', list: [{ password: 'array-password-0006', name: 'kept' }] },
        },
      },
      registry: { url: 'https://registry.example', Credentials: { user: 'bob', pass: 'registry-cred-0007' } },
      auth: { session_secret: sessionSecret, edge_token: edgeToken },
    },
    secrets: [sessionSecret, edgeToken, quotedPassword, ''],
    databases: { main: { nodes: 12, llm_total_input_tokens: 345, owner_note: edgeToken } },
    logsDir,
    queue: {
      queues: [
        { name: 'llm', tasks: [{ data: { admin_password: 'queue-pw-0015', note: quotedPassword, label: 'keep-me' } }] },
      ],
    },
    services: { supervisor_url: 'http://tester:supervisor-pw-0014@127.0.0.1:9011/RPC2', available: true },
  };
}

describe('buildDiagnosticsZip', () => {
  it('contains system, settings, databases, queue, services, README and every existing log', async () => {
    const entries = await unzip(await buildDiagnosticsZip(fullInput()));
    expect([...entries.keys()].sort()).toEqual([
      'README.txt',
      'databases.json',
      'logs/cortex.log',
      'logs/nginx.log',
      'logs/valkey.log',
      'queue.json',
      'services.json',
      'settings.json',
      'system.json',
    ]);
    const readme = entries.get('README.txt') ?? '';
    for (const name of entries.keys()) if (name !== 'README.txt') expect(readme).toContain(name);
    expect(readme).toMatch(/secrets are removed/i);
  });

  it('leaves no secret value in any entry', async () => {
    const entries = await unzip(await buildDiagnosticsZip(fullInput()));
    for (const [name, text] of entries) {
      for (const secret of planted) expect(text, `${secret} in ${name}`).not.toContain(secret);
    }
    expect(entries.get('logs/cortex.log')).toContain('[REDACTED]');
  });

  it('removes secret settings fields at every depth and keeps the rest', async () => {
    const entries = await unzip(await buildDiagnosticsZip(fullInput()));
    expect(JSON.parse(entries.get('settings.json') ?? '')).toEqual({
      llm: { provider: 'openai', max_concurrency: 4, nested: { deep: { list: [{ name: 'kept' }] } } },
      registry: { url: 'https://registry.example' },
      auth: {},
    });
  });

  it('keeps non-secret content readable', async () => {
    const entries = await unzip(await buildDiagnosticsZip(fullInput()));
    expect(JSON.parse(entries.get('databases.json') ?? '')).toEqual({
      main: { nodes: 12, llm_total_input_tokens: 345, owner_note: '[REDACTED]' },
    });
    expect(JSON.parse(entries.get('system.json') ?? '')).toEqual({
      rhizome_version: '1.2.3',
      note: 'started with [REDACTED]',
    });
    expect(JSON.parse(entries.get('queue.json') ?? '')).toEqual({
      queues: [
        { name: 'llm', tasks: [{ data: { admin_password: '[REDACTED]', note: '[REDACTED]', label: 'keep-me' } }] },
      ],
    });
    expect(JSON.parse(entries.get('services.json') ?? '')).toEqual({
      supervisor_url: 'http://tester:[REDACTED]@127.0.0.1:9011/RPC2',
      available: true,
    });
    expect(entries.get('logs/valkey.log')).toBe('12345:M 21 Nov 2026 20:01:02.123 * Ready to accept connections\n');
    const cortex = (entries.get('logs/cortex.log') ?? '').trimEnd().split('\n');
    expect(cortex).toHaveLength(6);
    expect(cortex.map((line) => (line.startsWith('{') ? 'json' : line))).toEqual([
      'json',
      'json',
      'json',
      'json',
      'json',
      'Error: connect failed password=[REDACTED]',
    ]);
    expect(JSON.parse(cortex[2])).toMatchObject({
      message: 'upstream call',
      headers: { authorization: 'Bearer [REDACTED]' },
    });
    expect(JSON.parse(cortex[4])).toMatchObject({ message: 'body {"password":"[REDACTED]"}' });
  });

  it('omits queue and services when not given', async () => {
    const { queue: _queue, services: _services, ...input } = fullInput();
    const entries = await unzip(await buildDiagnosticsZip(input));
    expect(entries.has('queue.json')).toBe(false);
    expect(entries.has('services.json')).toBe(false);
    expect(entries.has('settings.json')).toBe(true);
    expect(entries.get('README.txt')).not.toContain('queue.json');
  });

  it('includes the last 2000 lines of each log by default, or logLines', async () => {
    writeLog(
      'neuron',
      Array.from({ length: 2500 }, (_, i) => `entry ${i}`),
    );
    const input: DiagnosticsInput = { system: {}, settings: {}, secrets: [], databases: {}, logsDir };
    const byDefault = (await unzip(await buildDiagnosticsZip(input))).get('logs/neuron.log') ?? '';
    const lines = byDefault.trimEnd().split('\n');
    expect(lines).toHaveLength(2000);
    expect([lines[0], lines[1999]]).toEqual(['entry 500', 'entry 2499']);
    const short = await unzip(await buildDiagnosticsZip({ ...input, logLines: 3 }));
    expect(short.get('logs/neuron.log')).toBe('entry 2497\nentry 2498\nentry 2499\n');
    expect([...short.keys()].filter((name) => name.startsWith('logs/'))).toEqual(['logs/neuron.log']);
  });
});

describe('systemInfo', () => {
  it('reports the version, runtime, host and process facts', () => {
    const info = systemInfo('9.8.7');
    expect(info).toMatchObject({
      rhizome_version: '9.8.7',
      node_version: process.version,
      platform: process.platform,
      arch: process.arch,
      os_release: os.release(),
      cpu_count: os.cpus().length,
      pid: process.pid,
    });
    expect(info.total_memory_bytes).toBe(os.totalmem());
    expect(info.free_memory_bytes).toEqual(expect.any(Number));
    expect(info.process_uptime_seconds).toEqual(expect.any(Number));
  });
});
