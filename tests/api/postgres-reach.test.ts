import { reachPostgres } from '@rhizome/core/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRhizome, startCliServer, type CliServer } from '../support/cli.ts';
import { freePort } from '../support/ports.ts';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { tempDataDir } from '../support/server.ts';

interface DoctorReport {
  checks: { name: string; status: string; message: string; fix?: string }[];
}

/** Reaching the PostgreSQL server RHIZOME_DATABASE_URL names: a real server from Debian's binaries. */
describe('a PostgreSQL server named by RHIZOME_DATABASE_URL', () => {
  let postgres: TestPostgres;
  let cli: CliServer;
  const withPassword = (password: string) => postgres.url.replace(postgres.password, password);

  beforeAll(async () => {
    [postgres, cli] = await Promise.all([startPostgres(), startCliServer()]);
  }, 120_000);
  afterAll(async () => {
    await cli?.server.stop();
    await postgres?.stop();
  });

  it('is reached and named: version, database, role, and whether it may create schemas', async () => {
    const reached = await reachPostgres(postgres.url);
    expect(reached).toMatchObject({ ok: true, database: 'rhizome', user: 'rhizome', canCreateSchemas: true });
    expect(reached.ok && reached.server).toMatch(/^\d+\.\d+/);
  });

  it('says in one line what is wrong: password, database, refused port, host, scheme', async () => {
    const problem = async (url: string) => {
      const reached = await reachPostgres(url, 3_000);
      expect(reached.ok).toBe(false);
      return reached.ok ? '' : reached.problem;
    };
    expect(await problem(withPassword('wrong'))).toContain('refused the password of rhizome');
    expect(await problem(postgres.url.replace(/\/rhizome$/, '/missing'))).toContain(
      "the database 'missing' does not exist",
    );
    const closed = await freePort();
    expect(await problem(`postgres://rhizome:x@127.0.0.1:${closed}/rhizome`)).toContain(
      `no PostgreSQL server answers at 127.0.0.1:${closed} (connection refused)`,
    );
    expect(await problem('postgres://rhizome:x@no-such-host.invalid:5432/rhizome')).toContain('is not known');
    expect(await problem('mysql://rhizome@127.0.0.1/rhizome')).toContain('must start with postgres://');
    expect(await problem('not a url')).toContain('is not a URL');
  }, 60_000);

  it('tells a role that may not create schemas how to grant it', async () => {
    await postgres.superuser("CREATE ROLE reader LOGIN PASSWORD 'reader-pw'");
    await postgres.superuser('REVOKE CREATE ON DATABASE rhizome FROM PUBLIC');
    const reached = await reachPostgres(`postgres://reader:reader-pw@127.0.0.1:${postgres.port}/rhizome`);
    expect(reached).toMatchObject({ ok: true, user: 'reader', canCreateSchemas: false });
    const { output } = await cli.rhizome(['doctor', '--json'], {
      RHIZOME_DATABASE_URL: `postgres://reader:reader-pw@127.0.0.1:${postgres.port}/rhizome`,
    });
    const check = (JSON.parse(output) as DoctorReport).checks.find((item) => item.name === 'postgresql');
    expect(check).toMatchObject({ status: 'fail', fix: 'GRANT CREATE ON DATABASE rhizome TO reader' });
  }, 60_000);

  it('is checked by rhizome doctor without printing its password', async () => {
    const good = await cli.rhizome(['doctor', '--json'], { RHIZOME_DATABASE_URL: postgres.url });
    const answering = (JSON.parse(good.output) as DoctorReport).checks.find((item) => item.name === 'postgresql');
    expect(answering?.status).toBe('warn');
    expect(answering?.message).toContain('answers at postgres://rhizome:***@127.0.0.1');
    const bad = await cli.rhizome(['doctor'], { RHIZOME_DATABASE_URL: withPassword('wrong-secret') });
    expect(bad.code).toBe(1);
    expect(bad.output).toMatch(/^FAIL {2}postgresql\s+.*refused the password of rhizome/m);
    expect(bad.output).not.toContain('wrong-secret');
    expect(good.output).not.toContain(postgres.password);
  }, 60_000);

  it('keeps rhizome serve from starting on SQLite while it is set, in one line', async () => {
    const { code, output } = await runRhizome(['serve', '--port', '0'], tempDataDir(), {
      RHIZOME_DATABASE_URL: postgres.url,
    });
    expect(code).toBe(2);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toContain('RHIZOME_DATABASE_URL is set');
    expect(output).not.toContain(postgres.password);
  }, 60_000);
});
