import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, type CliServer } from '../support/cli.ts';

interface DatabaseInfo {
  name: string;
  path: string;
  exists: boolean;
  size: number;
}

// Every command is a process of its own, which takes seconds on a loaded machine.
const patience = 120_000;

/** `rhizome db …` against a real server: what it prints matches what the server holds, and refusals exit non-zero. */
describe('rhizome db', () => {
  let cli: CliServer;
  beforeAll(async () => {
    cli = await startCliServer();
  }, 60_000);
  afterAll(() => cli.server.stop());

  const serverGet = (path: string) => cli.server.call('GET', path, { cookie: cli.cookie });
  const activeName = async () => ((await serverGet('/databases/current')).body as { current: string }).current;

  it(
    'create, list (table, names, JSON) and info show the databases the server has',
    async () => {
      const created = await cli.rhizome(['db', 'create', 'atlas']);
      expect(created.code, created.output).toBe(0);
      const atlas = (await serverGet('/databases/atlas')).body as DatabaseInfo;
      expect(atlas.exists).toBe(true);
      expect(created.output).toContain(`Created database 'atlas' at ${atlas.path}`);

      const listed = await cli.rhizome(['db', 'list']);
      expect(listed.code, listed.output).toBe(0);
      expect(listed.output).toMatch(/^ACTIVE\s+NAME\s+BYTES\s+LAST MODIFIED$/m);
      expect(listed.output).toMatch(/^\*\s+default\s+\d+/m);
      expect(listed.output).toMatch(/^\s+atlas\s+\d+/m);
      const quiet = await cli.rhizome(['db', 'list', '-q']);
      expect(quiet.output.trim().split('\n')).toEqual(['atlas', 'default']);
      const json = JSON.parse((await cli.rhizome(['db', 'list', '--json'])).output) as {
        current: string;
        databases: DatabaseInfo[];
      };
      expect(json.current).toBe('default');
      expect(json.databases).toEqual(((await serverGet('/databases')).body as { databases: DatabaseInfo[] }).databases);

      const info = await cli.rhizome(['db', 'info', 'atlas']);
      expect(info.code, info.output).toBe(0);
      expect(info.output).toMatch(/^name:\s+atlas$/m);
      expect(info.output).toContain(atlas.path);
      expect(JSON.parse((await cli.rhizome(['db', 'info', 'atlas', '--json'])).output)).toEqual({
        ...atlas,
        active: false,
      });

      const again = await cli.rhizome(['db', 'create', 'atlas']);
      expect(again.code).toBe(1);
      expect(again.output).toContain("Database 'atlas' already exists");
      const unknown = await cli.rhizome(['db', 'info', 'nowhere']);
      expect(unknown.code, unknown.output).toBe(5);
    },
    patience,
  );

  it(
    'switch moves the active database, current shows it, and the server refuses to delete it',
    async () => {
      const switched = await cli.rhizome(['db', 'switch', 'atlas']);
      expect(switched.code, switched.output).toBe(0);
      expect(await activeName()).toBe('atlas');
      expect(switched.output).toContain("Switched to database 'atlas'");

      expect((await cli.rhizome(['db', 'current'])).output.trim()).toBe('atlas');
      const verbose = await cli.rhizome(['db', 'current', '-v']);
      expect(verbose.output).toMatch(/^name:\s+atlas \(active\)$/m);
      expect(verbose.output).toMatch(/^path:\s+\S+atlas/m);
      const json = JSON.parse((await cli.rhizome(['db', 'current', '--json'])).output) as {
        current: string;
        info: DatabaseInfo;
      };
      expect(json).toMatchObject({ current: 'atlas', info: { name: 'atlas', exists: true } });

      const activeDelete = await cli.rhizome(['db', 'delete', 'atlas', '--yes']);
      expect(activeDelete.code).toBe(1);
      expect(activeDelete.output).toContain('The active database cannot be deleted');
      expect((await serverGet('/databases/atlas')).status).toBe(200);

      const unknown = await cli.rhizome(['db', 'switch', 'nowhere']);
      expect(unknown.code, unknown.output).toBe(5);
      expect(await activeName()).toBe('atlas');
      expect((await cli.rhizome(['db', 'switch', 'default'])).code).toBe(0);
      expect(await activeName()).toBe('default');
    },
    patience,
  );

  it(
    'delete asks for --yes where there is no terminal, then deletes',
    async () => {
      const unconfirmed = await cli.rhizome(['db', 'delete', 'atlas']);
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.output).toContain('pass --yes');
      expect((await serverGet('/databases/atlas')).status).toBe(200);

      const deleted = await cli.rhizome(['db', 'delete', 'atlas', '-y']);
      expect(deleted.code, deleted.output).toBe(0);
      expect(deleted.output).toContain("Deleted database 'atlas'");
      expect((await serverGet('/databases/atlas')).status).toBe(404);

      const unknown = await cli.rhizome(['db', 'delete', 'atlas', '--yes']);
      expect(unknown.code, unknown.output).toBe(5);
      const theDefault = await cli.rhizome(['db', 'delete', 'default', '--yes']);
      expect(theDefault.code).toBe(1);
      expect(theDefault.output).toContain('The default database cannot be deleted');
    },
    patience,
  );

  it(
    "keeps the schema migration commands, which read the server's data directory itself",
    async () => {
      const status = await cli.rhizome(['db', 'migrate', 'status'], { RHIZOME_DATA_DIR: cli.server.dataDir });
      expect(status.code, status.output).toBe(0);
      expect(status.output).toMatch(/^default: revision \S+/m);
    },
    patience,
  );
});
