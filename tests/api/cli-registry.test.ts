import fs from 'node:fs';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportedPackage } from '../support/ccx-package.ts';
import { spawnRhizome, startCliServer, type CliServer } from '../support/cli.ts';
import { startRegistryFake, type RegistryFake } from '../support/fakes/registry-server.ts';
import { until } from '../support/wait.ts';

/** `rhizome registry|lexicon …`, `pull` and `push` against a real server logged in to a real-HTTP registry. */
describe('rhizome registry', () => {
  let cli: CliServer;
  let fake: RegistryFake;
  let ccx: Buffer;
  let manifestVersion: string;
  const call = (method: string, apiPath: string, body?: unknown) =>
    cli.server.call(method, apiPath, { cookie: cli.cookie, body });
  const labels = async () =>
    ((await call('GET', '/nodes?page_size=100')).body as { data: { label: string }[] }).data
      .map((node) => node.label)
      .sort();

  beforeAll(async () => {
    fake = await startRegistryFake();
    cli = await startCliServer({ env: { REGISTRY_URL: fake.url } });
    expect((await call('PATCH', '/settings', { web: { allow_private_addresses: true } })).status).toBe(200);
    fake.addUser('grace', 'correct-horse');
    fake.addPackage({ name: 'medicine', ownerUsername: 'ada', description: 'clinical graph', downloadCount: 10 });
    fake.addPackage({ name: 'law', ownerUsername: 'grace', description: 'statutes', downloadCount: 1 });
    for (const label of ['Marie Curie', 'Polonium'])
      expect(
        (
          await call('POST', '/nodes', {
            template_id: 'system_template_item',
            label,
            properties: { definition: label },
          })
        ).status,
      ).toBe(201);
    ccx = await exportedPackage(cli.server.platform, { database: 'default' });
    const manifest = await (await JSZip.loadAsync(ccx)).file('manifest.json')!.async('string');
    manifestVersion = (JSON.parse(manifest) as { package_version: string }).package_version;
    fake.addPackage({ name: 'chemistry', ownerUsername: 'ada', packageType: 'KNOWLEDGE' }, ccx);
    expect((await call('POST', '/databases', { name: 'pulled' })).status).toBe(201);
    expect((await call('PATCH', '/databases/current', { name: 'pulled' })).status).toBe(200);
  }, 90_000);
  afterAll(async () => {
    await cli.server.stop();
    await fake.close();
  });

  it('says when the server is not logged in (exit 4), also to push', async () => {
    const whoami = await cli.rhizome(['registry', 'whoami']);
    expect(whoami.code).toBe(4);
    expect(whoami.output).toContain('rhizome registry login');
    const json = await cli.rhizome(['registry', 'whoami', '--json']);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.output)).toMatchObject({ authenticated: false, token_present: false });
    const file = path.join(cli.work, 'alone.ccx');
    fs.writeFileSync(file, ccx);
    const push = await cli.rhizome(['push', file]);
    expect(push.code, push.output).toBe(4);
    expect(fake.uploads).toHaveLength(0);
  }, 60_000);

  it('stores a token for the registry -u names (through the lexicon alias) and logs out', async () => {
    const login = await cli.rhizome(['lexicon', 'login', '-t', 'eyJ.direct.token', '-u', 'https://other.example/']);
    expect(login.code, login.output).toBe(0);
    expect(login.output).toContain('Logged in to https://other.example');
    const whoami = await cli.rhizome(['lexicon', 'whoami', '--json']);
    expect(JSON.parse(whoami.output)).toMatchObject({ authenticated: true, registry_url: 'https://other.example' });
    expect((await cli.rhizome(['registry', 'logout'])).code).toBe(0);
    expect((await cli.rhizome(['registry', 'whoami'])).code).toBe(4);
  }, 60_000);

  it('logs in with a password: a wrong one is exit 4, the right one names the account', async () => {
    const wrong = await cli.rhizome(['registry', 'login', '--username', 'grace', '--password', 'wrong-horse']);
    expect(wrong.code, wrong.output).toBe(4);
    const right = await cli.rhizome(['registry', 'login', '--username', 'grace', '--password', 'correct-horse']);
    expect(right.code, right.output).toBe(0);
    expect(right.output).toContain(`Logged in to ${fake.url} as grace`);
    const whoami = await cli.rhizome(['registry', 'whoami']);
    expect(whoami).toMatchObject({ code: 0 });
    expect(whoami.output).toContain(`grace at ${fake.url}`);
  }, 60_000);

  it('searches as a table or JSON, by sort and author', async () => {
    const table = await cli.rhizome(['registry', 'search', 'i']);
    expect(table.code, table.output).toBe(0);
    expect(table.output).toMatch(/PACKAGE\s+TYPE\s+DOWNLOADS/);
    expect(table.output).toMatch(/ada\/medicine\s+FULL\s+10\s+/);
    const byName = await cli.rhizome(['registry', 'search', '-s', 'name', '-n', '2', '--json']);
    expect((JSON.parse(byName.output) as { name: string }[]).map((item) => item.name)).toEqual(['chemistry', 'law']);
    expect(Object.fromEntries(fake.requests.at(-1)!.query)).toMatchObject({ sort: 'name', limit: '2' });
    const grace = await cli.rhizome(['registry', 'search', '-a', 'grace', '--json']);
    expect((JSON.parse(grace.output) as { name: string }[]).map((item) => item.name)).toEqual(['law']);
    expect((await cli.rhizome(['registry', 'search', '-s', 'popularity'])).code).toBe(2);
  }, 60_000);

  it('shows one package; an unknown one is exit 5, a name without its owner exit 2', async () => {
    const shown = await cli.rhizome(['registry', 'info', 'ada/medicine']);
    expect(shown.code, shown.output).toBe(0);
    expect(shown.output).toContain('ada/medicine: clinical graph');
    expect(shown.output).toMatch(/downloads\s+10/);
    expect((await cli.rhizome(['registry', 'info', 'ada/astronomy'])).code).toBe(5);
    expect((await cli.rhizome(['registry', 'info', 'medicine'])).code).toBe(2);
  }, 60_000);

  it('pulls a package into the active database and prints what it brought; unknown is 5', async () => {
    expect(await labels()).toEqual([]);
    const pulled = await cli.rhizome(['pull', 'ada/chemistry']);
    expect(pulled.code, pulled.output).toBe(0);
    expect(pulled.output).toContain(`Imported ada/chemistry@${manifestVersion}: 2 nodes imported`);
    expect(await labels()).toEqual(['Marie Curie', 'Polonium']);
    expect(fake.requests.at(-1)!.path).toBe('/api/v1/packages/ada/chemistry/latest');
    const missing = await cli.rhizome(['registry', 'pull', 'ada/alchemy', '-v', '1.0.0']);
    expect(missing.code, missing.output).toBe(5);
    expect(fake.requests.at(-1)!.path).toBe('/api/v1/packages/ada/alchemy/1.0.0');
  }, 90_000);

  it('keeps pulled packages on this machine: list, info --local, a stored version imported again, remove', async () => {
    const listed = await cli.rhizome(['lexicon', 'list', '--json']);
    expect(listed.code, listed.output).toBe(0);
    const [stored, ...others] = JSON.parse(listed.output) as {
      owner: string;
      name: string;
      version: string;
      file: string;
    }[];
    expect(others).toEqual([]);
    expect(stored).toMatchObject({ owner: 'ada', name: 'chemistry', version: manifestVersion });
    expect(fs.readFileSync(stored.file).equals(ccx)).toBe(true);
    expect((await cli.rhizome(['lexicon', 'list', '-f', 'simple'])).output.trim()).toBe(
      `ada/chemistry@${manifestVersion}`,
    );

    const local = await cli.rhizome(['lexicon', 'info', 'ada/chemistry', '--local']);
    expect(local.code, local.output).toBe(0);
    expect(local.output).toContain(`ada/chemistry@${manifestVersion}`);
    expect(local.output).toMatch(/format\s+CCX \S+, \d+ files/);
    expect((await cli.rhizome(['lexicon', 'info', 'ada/medicine', '--local'])).code).toBe(5);

    const asked = fake.requests.length;
    const again = await cli.rhizome(['pull', 'ada/chemistry', '-v', manifestVersion]);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('Importing the stored copy of');
    expect(fake.requests.length).toBe(asked);
    const forced = await cli.rhizome(['pull', 'ada/chemistry', '-v', manifestVersion, '--force']);
    expect(forced.code, forced.output).toBe(0);
    expect(fake.requests.at(-1)!.path).toBe(`/api/v1/packages/ada/chemistry/${manifestVersion}`);

    const removed = await cli.rhizome(['lexicon', 'remove', 'ada/chemistry']);
    expect(removed.code, removed.output).toBe(0);
    expect(fs.existsSync(stored.file)).toBe(false);
    expect((await cli.rhizome(['lexicon', 'list'])).output).toContain('No packages pulled on this machine');
    expect((await cli.rhizome(['lexicon', 'remove', 'ada/chemistry'])).code).toBe(5);
    expect((await cli.rhizome(['lexicon', 'remove', 'ada/chemistry', '-f'])).code).toBe(0);
    expect(await labels()).toEqual(['Marie Curie', 'Polonium']);
  }, 120_000);

  it('downloads a package with --output instead of importing it, and unpacks it with --extract', async () => {
    const before = await labels();
    const dir = path.join(cli.work, 'downloads');
    const downloaded = await cli.rhizome(['pull', 'ada/chemistry', '-o', dir, '-v', '1.0.0']);
    expect(downloaded.code, downloaded.output).toBe(0);
    const file = path.join(dir, 'chemistry-1.0.0.ccx');
    expect(downloaded.output).toContain(`Downloaded ada/chemistry@1.0.0 to ${file}`);
    expect(fs.readFileSync(file).equals(ccx)).toBe(true);
    expect(fake.requests.at(-1)!.path).toBe('/api/v1/packages/ada/chemistry/1.0.0');

    const unpacked = await cli.rhizome(['registry', 'pull', 'ada/chemistry', '-o', dir, '-x', '--json']);
    expect(unpacked.code, unpacked.output).toBe(0);
    const report = JSON.parse(unpacked.output) as { directory: string; files: number };
    expect(report.directory).toBe(path.join(dir, 'chemistry'));
    expect(report.files).toBeGreaterThan(0);
    expect(fs.readdirSync(report.directory)).toContain('manifest.json');
    expect(await labels()).toEqual(before);
    expect((await cli.rhizome(['pull', 'ada/alchemy', '-o', dir])).code).toBe(5);
  }, 90_000);

  it('pushes the one .ccx of a directory with its message and visibility', async () => {
    const dir = path.join(cli.work, 'release');
    fs.mkdirSync(dir);
    expect((await cli.rhizome(['push', dir])).code).toBe(5);
    fs.writeFileSync(path.join(dir, 'chemistry.ccx'), ccx);
    const pushed = await cli.rhizome(['push', dir, '-m', 'first release', '--private']);
    expect(pushed.code, pushed.output).toBe(0);
    expect(pushed.output).toMatch(/Published grace\/\S+ \(private, 1 version\)/);
    const sent = fake.uploads.at(-1)!;
    expect(sent.fields).toEqual({ public: 'false', message: 'first release' });
    expect(sent.bytes.equals(ccx)).toBe(true);
    expect((await cli.rhizome(['push', dir, '--public', '--private'])).code).toBe(2);
  }, 60_000);

  it('logs in through the device flow once the code is approved', async () => {
    const run = spawnRhizome(['registry', 'login', '--no-browser'], cli.work, {
      RHIZOME_URL: cli.server.url,
      RHIZOME_API_KEY: cli.key,
    });
    try {
      const poll = await until(() => fake.requests.find((request) => request.path === '/api/v1/auth/device/token'), {
        timeoutMs: 30_000,
        what: 'the first device poll',
      });
      expect(run.output()).toContain('enter the code WDJB-MJHT');
      fake.setDevice((JSON.parse(poll.body.toString()) as { device_code: string }).device_code, 'approved', 'ada');
      expect(await run.exited).toBe(0);
      expect(run.output()).toContain(`Logged in to ${fake.url} as ada`);
    } finally {
      await run.stop();
    }
  }, 60_000);
});
