import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, type CliServer } from '../support/cli.ts';

interface Health {
  checks: Record<string, { status: string; message: string }>;
}

/** `rhizome health` against a real server: its exit code follows the server's checks. */
describe('rhizome health', () => {
  let cli: CliServer;
  beforeAll(async () => {
    cli = await startCliServer();
  }, 60_000);
  afterAll(() => cli.server.stop());

  it('prints every check and exits 0 only when every one passes', async () => {
    const { code, output } = await cli.rhizome(['health']);
    const checks = ((await cli.server.call('GET', '/health', { cookie: cli.cookie })).body as Health).checks;
    const names = Object.keys(checks);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(output).toMatch(new RegExp(`^(ok  |FAIL) ${name}\\s`, 'm'));
    const failing = names.filter((name) => checks[name].status !== 'ok');
    expect(code, output).toBe(failing.length ? 1 : 0);
    for (const name of failing) expect(output).toMatch(new RegExp(`^FAIL ${name}\\s`, 'm'));
    const json = await cli.rhizome(['health', '--json']);
    expect(Object.keys((JSON.parse(json.output) as Health).checks)).toEqual(names);
  }, 60_000);

  it('exits 3 when no server answers', async () => {
    const { code } = await cli.rhizome(['health'], { RHIZOME_URL: 'http://127.0.0.1:9' });
    expect(code).toBe(3);
  }, 60_000);
});
