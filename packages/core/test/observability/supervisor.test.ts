import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../tests/support/ports.ts';
import { until } from '../../../../tests/support/wait.ts';
import { getServiceStatus, type SupervisorStatus } from '../../src/observability/supervisor.ts';

describe('getServiceStatus against a real supervisord', () => {
  let dir = '';
  let supervisord: ChildProcess | undefined;
  let url = '';

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rhizome-supervisor-'));
    const port = await freePort();
    await fs.writeFile(
      path.join(dir, 'supervisord.conf'),
      [
        '[supervisord]',
        'nodaemon=true',
        `logfile=${dir}/supervisord.log`,
        `pidfile=${dir}/supervisord.pid`,
        `childlogdir=${dir}`,
        '[inet_http_server]',
        `port=127.0.0.1:${port}`,
        'username=tester',
        'password=s&cret<pw>',
        '[rpcinterface:supervisor]',
        'supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface',
        '[program:sleeper]',
        'command=sleep 300',
        'autorestart=true',
        'startsecs=1',
        '',
      ].join('\n'),
    );
    supervisord = spawn('supervisord', ['-n', '-c', path.join(dir, 'supervisord.conf')], { stdio: 'ignore' });
    url = `http://tester:${encodeURIComponent('s&cret<pw>')}@127.0.0.1:${port}/RPC2`;
  }, 30_000);

  afterAll(async () => {
    if (supervisord && supervisord.exitCode === null && supervisord.signalCode === null) {
      const exited = once(supervisord, 'exit');
      supervisord.kill('SIGTERM');
      await exited;
    }
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  }, 30_000);

  const sleeper = (status: SupervisorStatus) => status.services.find((s) => s.name === 'sleeper');

  it('reports the program RUNNING with its pid, then a new pid after it is killed', async () => {
    let status: SupervisorStatus = { available: false, services: [] };
    await until(
      async () => {
        status = await getServiceStatus(url);
        return sleeper(status)?.state === 'RUNNING';
      },
      { timeoutMs: 20_000, intervalMs: 100, what: 'the program to run' },
    );
    expect(status.available).toBe(true);
    const first = sleeper(status)!;
    expect(first.pid).toBeGreaterThan(0);
    expect(first.start_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
    expect(first.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(first.description).toContain(`pid ${first.pid}`);

    process.kill(first.pid!, 'SIGKILL');
    await until(
      async () => {
        status = await getServiceStatus(url);
        const now = sleeper(status);
        return now?.state === 'RUNNING' && now.pid !== first.pid;
      },
      { timeoutMs: 15_000, intervalMs: 100, what: 'the program to run again with a new pid' },
    );
    expect(sleeper(status)!.pid).toBeGreaterThan(0);
  }, 40_000);

  it('is unavailable with wrong credentials', async () => {
    await expect(getServiceStatus(url.replace('tester:', 'intruder:'))).resolves.toEqual({
      available: false,
      services: [],
    });
  });
});

describe('getServiceStatus failure modes and XML decoding', () => {
  let server: http.Server;
  let baseUrl = '';
  let nextResponse = '';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/hang') return; // never answers: the client must time out
      res.writeHead(200, { 'Content-Type': 'text/xml' }).end(nextResponse);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is unavailable without a URL or when nothing listens', async () => {
    await expect(getServiceStatus(undefined)).resolves.toEqual({ available: false, services: [] });
    await expect(getServiceStatus(`http://127.0.0.1:${await freePort()}/RPC2`)).resolves.toEqual({
      available: false,
      services: [],
    });
  });

  it('is unavailable when supervisord does not answer in time', async () => {
    const started = Date.now();
    await expect(getServiceStatus(`${baseUrl}/hang`, 300)).resolves.toEqual({ available: false, services: [] });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('is unavailable on an XML-RPC fault', async () => {
    nextResponse = `<?xml version='1.0'?>
<methodResponse><fault><value><struct>
<member><name>faultCode</name><value><int>1</int></value></member>
<member><name>faultString</name><value><string>UNKNOWN_METHOD</string></value></member>
</struct></value></fault></methodResponse>`;
    await expect(getServiceStatus(`${baseUrl}/RPC2`)).resolves.toEqual({ available: false, services: [] });
  });

  it('decodes i4, bare string values, booleans and entities', async () => {
    nextResponse = `<?xml version='1.0'?>
<!-- supervisord-like answer -->
<methodResponse>
<params>
<param>
<value><array><data>
<value><struct>
<member><name>name</name><value>web &amp; api</value></member>
<member><name>statename</name><value><string>RUNNING</string></value></member>
<member><name>pid</name><value><i4>4242</i4></value></member>
<member><name>start</name><value><int>1700000000</int></value></member>
<member><name>now</name><value><int>1700000065</int></value></member>
<member><name>description</name><value><string>pid 4242, uptime 0:01:05 &lt;ok&gt; &#x263A;</string></value></member>
<member><name>spawnerr</name><value><boolean>0</boolean></value></member>
</struct></value>
<value><struct>
<member><name>name</name><value><string>worker</string></value></member>
<member><name>statename</name><value><string>STOPPED</string></value></member>
<member><name>pid</name><value><int>0</int></value></member>
<member><name>start</name><value><int>0</int></value></member>
<member><name>now</name><value><int>1700000065</int></value></member>
<member><name>description</name><value><string>Not started</string></value></member>
<member><name>exitstatus</name><value><nil/></value></member>
</struct></value>
</data></array></value>
</param>
</params>
</methodResponse>`;
    await expect(getServiceStatus(`${baseUrl}/RPC2`)).resolves.toEqual({
      available: true,
      services: [
        {
          name: 'web & api',
          state: 'RUNNING',
          pid: 4242,
          uptime_seconds: 65,
          start_time: '2023-11-14T22:13:20.000Z',
          description: 'pid 4242, uptime 0:01:05 <ok> \u263A',
        },
        {
          name: 'worker',
          state: 'STOPPED',
          pid: null,
          uptime_seconds: 0,
          start_time: null,
          description: 'Not started',
        },
      ],
    });
  });

  it('is unavailable on malformed XML', async () => {
    nextResponse = '<methodResponse><params><param><value><array><data></array></value>';
    await expect(getServiceStatus(`${baseUrl}/RPC2`)).resolves.toEqual({ available: false, services: [] });
  });
});
