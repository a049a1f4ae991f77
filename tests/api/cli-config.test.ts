import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startCliServer, type CliServer } from '../support/cli.ts';

type Settings = Record<string, Record<string, unknown>> & { paths: { settings_file: string } };

// Every command is a process of its own, which takes seconds on a loaded machine.
const patience = 120_000;

/** `rhizome config …` works on the server's settings: what it prints and changes is what the server holds. */
describe('rhizome config', () => {
  let cli: CliServer;
  beforeAll(async () => {
    cli = await startCliServer();
  }, 60_000);
  afterAll(() => cli.server.stop());

  const serverSettings = async () =>
    (await cli.server.call('GET', '/settings', { cookie: cli.cookie })).body as Settings;

  it(
    'show prints the settings as a tree, JSON or YAML; get prints one',
    async () => {
      const settings = await serverSettings();
      const tree = await cli.rhizome(['config', 'show']);
      expect(tree.code, tree.output).toBe(0);
      expect(tree.output).toMatch(/^search:$/m);
      expect(tree.output).toContain(`\n  default_result_limit: ${String(settings.search.default_result_limit)}\n`);
      expect(JSON.parse((await cli.rhizome(['config', 'show', '-f', 'json'])).output)).toEqual(settings);
      expect(JSON.parse((await cli.rhizome(['config', 'show', '--json'])).output)).toEqual(settings);
      expect(parseYaml((await cli.rhizome(['config', 'show', '--format', 'yaml'])).output)).toEqual(settings);

      const limit = await cli.rhizome(['config', 'get', 'search.default_result_limit']);
      expect(limit.code, limit.output).toBe(0);
      expect(limit.output.trim()).toBe(String(settings.search.default_result_limit));
      expect(JSON.parse((await cli.rhizome(['config', 'get', 'search', '--json'])).output)).toEqual(settings.search);
      const unknown = await cli.rhizome(['config', 'get', 'search.no_such_setting']);
      expect(unknown.code).toBe(5);
      expect(unknown.output).toContain("no setting 'search.no_such_setting'");
    },
    patience,
  );

  it(
    "set changes a setting on the server, and shows the server's refusal of an invalid one",
    async () => {
      const set = await cli.rhizome(['config', 'set', 'chunking.small_chunk_size', '800']);
      expect(set.code, set.output).toBe(0);
      expect(set.output).toContain('chunking.small_chunk_size = 800');
      expect((await serverSettings()).chunking.small_chunk_size).toBe(800);

      const invalid = await cli.rhizome(['config', 'set', 'search.default_result_limit', '"many"']);
      expect(invalid.code).toBe(1);
      expect(invalid.output).toMatch(/search\.default_result_limit: must be (integer|number)/);
      expect(typeof (await serverSettings()).search.default_result_limit).toBe('number');

      const readOnly = await cli.rhizome(['config', 'set', 'current_database', 'elsewhere']);
      expect(readOnly.code).toBe(1);
      expect(readOnly.output).toContain("'rhizome db switch'");
      const unknown = await cli.rhizome(['config', 'set', 'search.no_such_setting', '1']);
      expect(unknown.code).toBe(5);
    },
    patience,
  );

  it(
    'edit opens the settings as YAML in $EDITOR and applies only what was changed',
    async () => {
      const editor = (name: string, body: string) => {
        const script = path.join(cli.work, name);
        writeFileSync(script, `import fs from 'node:fs';\nconst file = process.argv[2];\n${body}\n`);
        return `${process.execPath} ${script}`;
      };
      const before = await serverSettings();
      const changing = editor(
        'change.mjs',
        "fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^(  small_chunk_size:) .*$/m, '$1 640'));",
      );
      const edited = await cli.rhizome(['config', 'edit'], { EDITOR: changing, VISUAL: '' });
      expect(edited.code, edited.output).toBe(0);
      expect(edited.output.trim()).toBe('chunking.small_chunk_size = 640');
      const after = await serverSettings();
      expect(after.chunking.small_chunk_size).toBe(640);
      expect(after.search).toEqual(before.search);

      const untouched = await cli.rhizome(['config', 'edit'], { EDITOR: editor('keep.mjs', ''), VISUAL: '' });
      expect(untouched.output).toContain('No setting changed');

      const broken = editor('break.mjs', "fs.writeFileSync(file, 'search: [unclosed');");
      const invalid = await cli.rhizome(['config', 'edit'], { EDITOR: broken, VISUAL: '' });
      expect(invalid.code).toBe(2);
      expect(invalid.output).toContain('no valid YAML');

      const refused = editor(
        'refused.mjs',
        "fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^(  default_result_limit:) .*$/m, '$1 many'));",
      );
      const rejected = await cli.rhizome(['config', 'edit'], { EDITOR: refused, VISUAL: '' });
      expect(rejected.code).toBe(1);
      expect(rejected.output).toMatch(/search\.default_result_limit: must be (integer|number)/);

      const failed = await cli.rhizome(['config', 'edit'], { EDITOR: 'false', VISUAL: '' });
      expect(failed.code).toBe(1);
      expect(failed.output).toContain('nothing was changed');
      expect((await serverSettings()).chunking.small_chunk_size).toBe(640);
    },
    patience,
  );

  it(
    "path names the CLI's login file and the server's settings file",
    async () => {
      const settingsFile = (await serverSettings()).paths.settings_file;
      const paths = await cli.rhizome(['config', 'path']);
      expect(paths.code, paths.output).toBe(0);
      expect(paths.output).toContain(path.join(cli.work, 'config', 'cli.json'));
      expect(paths.output).toContain(settingsFile);
      expect(JSON.parse((await cli.rhizome(['config', 'path', '--json'])).output)).toEqual({
        cli_login_file: path.join(cli.work, 'config', 'cli.json'),
        server_settings_file: settingsFile,
      });
      const offline = await cli.rhizome(['config', 'path'], { RHIZOME_URL: 'http://127.0.0.1:9' });
      expect(offline.code, offline.output).toBe(0);
      expect(offline.output).toContain(path.join(cli.work, 'config', 'cli.json'));
      expect(offline.output).not.toContain(settingsFile);
    },
    patience,
  );

  it(
    'reset needs --force where there is no terminal, then restores the defaults',
    async () => {
      const unconfirmed = await cli.rhizome(['config', 'reset']);
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.output).toContain('pass --force');
      expect((await serverSettings()).chunking.small_chunk_size).toBe(640);

      const reset = await cli.rhizome(['config', 'reset', '--force']);
      expect(reset.code, reset.output).toBe(0);
      expect((await serverSettings()).chunking.small_chunk_size).not.toBe(640);
    },
    patience,
  );
});
