import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedOperations, fillPath, type DocumentedOperation } from '../support/openapi-operations.ts';
import { setUpAccount, startTestServer, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';

/**
 * Path traversal against every path parameter of the served OpenAPI document, against the web
 * interface's static files and through the names a user chooses (upload file names, database names).
 * A canary file sits beside the data directory: no answer may carry its secret, no request may change
 * or remove it, and nothing may be written outside the data directory.
 */

const secret = `canary-${process.pid}-${Date.now()}`;
const hops = [1, 2, 3, 4, 5, 6];

function traversalPayloads(target: string): { label: string; value: string }[] {
  return hops.flatMap((depth) => {
    const up = Array.from({ length: depth }, () => '..');
    return [
      { label: `encoded slashes ×${depth}`, value: encodeURIComponent([...up, target].join('/')) },
      { label: `double-encoded ×${depth}`, value: encodeURIComponent(encodeURIComponent([...up, target].join('/'))) },
      { label: `backslashes ×${depth}`, value: encodeURIComponent([...up, target].join('\\')) },
      { label: `dot-encoded ×${depth}`, value: [...up.map(() => '%2e%2e'), target].join('%2f') },
      { label: `overlong dots ×${depth}`, value: [...up.map(() => '....'), target].join('%2f%2f') },
    ];
  });
}

describe('path traversal', () => {
  let root: string;
  let canary: string;
  let server: TestServer;
  let cookie: string;
  let operations: DocumentedOperation[];

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-traversal-'));
    canary = path.join(root, 'canary.txt');
    fs.writeFileSync(canary, secret);
    const dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir);
    server = await startTestServer({ dataDir });
    cookie = await setUpAccount(server);
    operations = documentedOperations((await server.call('GET', '/openapi.json', { cookie })).body);
  });

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  function expectRootUntouched(): void {
    expect(fs.readFileSync(canary, 'utf8')).toBe(secret);
    expect(fs.readdirSync(root).sort()).toEqual(['canary.txt', 'data']);
  }

  it('never reads, changes or creates a file outside the data directory through a path parameter', async () => {
    const payloads = [
      ...traversalPayloads('canary.txt'),
      { label: 'absolute path', value: encodeURIComponent(canary) },
      { label: 'NUL byte', value: `canary.txt%00.zip` },
    ];
    const withParams = operations.filter(
      (operation) => operation.pathParameters.length > 0 && !/logout|reset|rollback/.test(operation.path),
    );
    expect(withParams.length).toBeGreaterThan(60);
    const failures: string[] = [];
    let trials = 0;
    for (const operation of withParams) {
      for (const payload of payloads) {
        const response = await fetch(`${server.base}${fillPath(operation, () => payload.value)}`, {
          method: operation.method,
          headers: { cookie, ...(operation.hasJsonBody ? { 'content-type': 'application/json' } : {}) },
          body: operation.method === 'GET' ? undefined : operation.hasJsonBody ? '{}' : undefined,
          signal: AbortSignal.timeout(10_000),
        });
        trials += 1;
        const streaming = response.headers.get('content-type')?.startsWith('text/event-stream');
        const body = streaming ? (await response.body?.cancel(), '') : await response.text();
        const where = `${operation.method} ${operation.path} (${payload.label}) → ${response.status}`;
        if (body.includes(secret)) failures.push(`${where}: served the canary`);
        if (response.status >= 500 && response.status !== 503) failures.push(where);
      }
    }
    console.log(`attack traversal (path parameters): ${trials} trials, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expectRootUntouched();
  }, 300_000);

  it('serves no file outside the web interface through its static paths', async () => {
    const failures: string[] = [];
    const targets = ['canary.txt', 'data/credentials.json', 'data/settings.json', 'etc/passwd'];
    let trials = 0;
    for (const target of targets) {
      for (const prefix of ['/', '/assets/', '/api/v1/../', '/entities/']) {
        for (const payload of traversalPayloads(target)) {
          const response = await fetch(`${server.url}${prefix}${payload.value}`, {
            headers: { cookie },
            signal: AbortSignal.timeout(10_000),
          });
          trials += 1;
          const body = await response.text();
          if (body.includes(secret) || body.includes('"password_hash"') || /root:.*:0:0:/.test(body))
            failures.push(`${prefix}${payload.value} (${payload.label}) → ${response.status}: leaked`);
          if (response.status >= 500) failures.push(`${prefix}${payload.value} → ${response.status}`);
        }
      }
    }
    console.log(`attack traversal (static files): ${trials} trials, ${failures.length} failures`);
    expect(failures).toEqual([]);
  }, 120_000);

  it('keeps an uploaded file named with ../ inside the data directory, and refuses such database names', async () => {
    let trials = 0;
    for (const name of ['../../evil.txt', '..\\..\\evil.txt', '/tmp/evil.txt', '....//....//evil.txt']) {
      const form = new FormData();
      form.append('extract_entities', 'false');
      form.append('file', new Blob([`an upload named ${name} with some text in it`]), name);
      const uploaded = await fetch(`${server.base}/sources`, { method: 'POST', headers: { cookie }, body: form });
      trials += 1;
      expect(uploaded.status, await uploaded.clone().text()).toBeLessThan(500);
      if (uploaded.status === 202) {
        const { id } = (await uploaded.json()) as { id: string };
        await until(
          async () => {
            const source = (await server.call('GET', `/sources/${id}`, { cookie })).body as { status: string };
            return ['indexed', 'error'].includes(source.status);
          },
          { timeoutMs: 60_000, what: `the upload named ${name} to settle` },
        );
      }
    }
    for (const name of ['../evil', '..', 'a/../../evil', '..\\evil', '/etc']) {
      const created = await server.call('POST', '/databases', { cookie, body: { name } });
      trials += 1;
      expect({ name, refused: [400, 422].includes(created.status) }).toEqual({ name, refused: true });
    }
    console.log(`attack traversal (chosen names): ${trials} trials, 0 failures`);
    expectRootUntouched();
    expect(fs.existsSync('/tmp/evil.txt')).toBe(false);
  }, 120_000);
});
