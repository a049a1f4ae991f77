import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, type CliServer } from '../support/cli.ts';

interface DoctorReport {
  ok: boolean;
  checks: { name: string; status: 'ok' | 'warn' | 'fail' | 'info'; message: string; fix?: string }[];
}

/** `rhizome doctor` against a real server, and against a URL where none answers. */
describe('rhizome doctor', () => {
  let cli: CliServer;
  beforeAll(async () => {
    cli = await startCliServer();
  }, 60_000);
  afterAll(() => cli.server.stop());

  it('passes every check of a healthy server and exits 0', async () => {
    const { code, output } = await cli.rhizome(['doctor']);
    expect(code, output).toBe(0);
    for (const name of ['data directory', 'disk space', 'server', 'authentication', 'health', 'migrations'])
      expect(output).toMatch(new RegExp(`^ok {4}${name}\\s`, 'm'));
    expect(output).toMatch(/^info {2}postgresql\s+not configured/m);
  }, 60_000);

  it('prints the checks as JSON with --json', async () => {
    const { code, output } = await cli.rhizome(['doctor', '--json']);
    const report = JSON.parse(output) as DoctorReport;
    expect(code, output).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => check.name)).toEqual([
      'data directory',
      'disk space',
      'postgresql',
      'server',
      'authentication',
      'health',
      'model server',
      'queue',
      'migrations',
    ]);
    expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
  }, 60_000);

  it('fails the authentication check with a wrong key', async () => {
    const { code, output } = await cli.rhizome(['doctor', '--json'], { RHIZOME_API_KEY: 'cc_live_not-a-key' });
    const report = JSON.parse(output) as DoctorReport;
    expect(code).toBe(1);
    expect(report.checks.find((check) => check.name === 'authentication')?.status).toBe('fail');
  }, 60_000);

  it('exits 1 when no server answers, with the local checks still run', async () => {
    const { code, output } = await cli.rhizome(['doctor'], { RHIZOME_URL: 'http://127.0.0.1:9' });
    expect(code, output).toBe(1);
    expect(output).toMatch(/^FAIL {2}server\s+no Rhizome server answers at http:\/\/127\.0\.0\.1:9/m);
    expect(output).toContain('start it with `pnpm start` or `rhizome serve`');
    expect(output).toMatch(/^ok {4}data directory\s/m);
    expect(output).toMatch(/^ok {4}disk space\s/m);
  }, 60_000);
});
