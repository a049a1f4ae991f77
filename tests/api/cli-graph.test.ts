import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolStep } from '../support/automation.ts';
import { startCliServer, type CliServer } from '../support/cli.ts';

interface Created {
  id: string;
  label: string;
  properties: Record<string, unknown>;
}

/** `rhizome graph node|link|template …` against a real server. */
describe('rhizome graph', () => {
  let cli: CliServer;
  const json = async <T>(args: string[]): Promise<T> => {
    const { code, output } = await cli.rhizome([...args, '--json']);
    expect(code, output).toBe(0);
    return JSON.parse(output) as T;
  };

  beforeAll(async () => {
    cli = await startCliServer();
  }, 60_000);
  afterAll(() => cli.server.stop());

  it('creates, shows, changes and deletes templates by name', async () => {
    const made = await json<{ id: string; name: string }>([
      'graph',
      'template',
      'create',
      '-n',
      'Lighthouse',
      '-p',
      'height:integer',
      '-p',
      'keeper',
      '--description',
      'a tower',
    ]);
    expect(made.name).toBe('Lighthouse');
    const link = await json<{ template_type: string }>(['graph', 'template', 'create', '-n', 'guards', '-t', 'edge']);
    expect(link.template_type).toBe('edge');
    const listed = await cli.rhizome(['graph', 'template', 'list', '-t', 'node', '-v']);
    expect(listed.output).toMatch(/Lighthouse\s+height:integer, keeper:string/);
    expect(listed.output).not.toContain('guards');
    const changed = await json<{ properties: { name: string }[]; description: string }>([
      'graph',
      'template',
      'update',
      'lighthouse',
      '-a',
      'lit:boolean',
      '-r',
      'keeper',
      '--description',
      'a lit tower',
    ]);
    expect(changed.properties.map((property) => property.name)).toEqual(['height', 'lit']);
    expect(changed.description).toBe('a lit tower');
    const shown = await cli.rhizome(['graph', 'template', 'get', made.id]);
    expect(shown.output).toContain('height:integer, lit:boolean');
    const badType = await cli.rhizome(['graph', 'template', 'create', '-n', 'X', '-p', 'a:colour']);
    expect(badType.code).toBe(2);
    const missing = await cli.rhizome(['graph', 'template', 'get', 'Nonesuch']);
    expect(missing.code).toBe(5);
  }, 150_000);

  it('creates nodes and links, changes their properties, refuses a delete that takes links unless --cascade', async () => {
    await json(['graph', 'template', 'create', '-n', 'Tower', '-p', 'height:integer', '-p', 'lit:boolean']);
    await json(['graph', 'template', 'create', '-n', 'watches', '-t', 'edge']);
    const tower = await json<Created>([
      'graph',
      'node',
      'create',
      '-t',
      'Tower',
      '-l',
      'Kestrel Point',
      '-p',
      'height=31',
      '-p',
      'lit=true',
    ]);
    expect(tower.properties).toEqual({ height: 31, lit: true });
    const keeper = await json<Created>([
      'graph',
      'node',
      'create',
      '-t',
      'tower',
      '-l',
      'Ada Lovell',
      '-j',
      '{"height": 2}',
    ]);
    const links = await json<{ id: string; source_node_id: string }[]>([
      'graph',
      'link',
      'create',
      keeper.id,
      tower.id,
      '-t',
      'watches',
      '-b',
      '-p',
      'since=1871',
    ]);
    expect(links.map((edge) => edge.source_node_id)).toEqual([keeper.id, tower.id]);
    const fromKeeper = await json<{ id: string }[]>(['graph', 'link', 'list', '-s', keeper.id]);
    expect(fromKeeper.map((edge) => edge.id)).toEqual([links[0].id]);
    const updatedLink = await json<Created>(['graph', 'link', 'update', links[0].id, '-l', 'keeps', '-u', 'since']);
    expect(updatedLink).toMatchObject({ label: 'keeps', properties: {} });
    const updated = await json<Created>([
      'graph',
      'node',
      'update',
      tower.id,
      '-s',
      'height=33',
      '-u',
      'lit',
      '-l',
      'Kestrel',
    ]);
    expect(updated).toMatchObject({ label: 'Kestrel', properties: { height: 33 } });
    const shown = await cli.rhizome(['graph', 'node', 'get', tower.id, '--include-links']);
    expect(shown.output).toMatch(/label\s+Kestrel/);
    expect(shown.output).toContain(`<- keeps Ada Lovell (${keeper.id})`);
    const listed = await json<{ id: string }[]>(['graph', 'node', 'list', '-t', 'Tower', '-l', '1']);
    expect(listed).toHaveLength(1);
    const badPair = await cli.rhizome(['graph', 'node', 'update', tower.id, '-s', 'height']);
    expect(badPair.code).toBe(2);

    const refused = await cli.rhizome(['graph', 'node', 'delete', tower.id]);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('--cascade');
    const manyLinks = await cli.rhizome(['graph', 'link', 'delete', '-s', tower.id, '-t', keeper.id]);
    expect(manyLinks.code, manyLinks.output).toBe(0);
    expect(await json<unknown[]>(['graph', 'link', 'list', '-s', tower.id])).toEqual([]);
    const deleted = await cli.rhizome(['graph', 'node', 'delete', tower.id, '--cascade']);
    expect(deleted.code, deleted.output).toBe(0);
    expect(deleted.output).toContain('with 1 link(s)');
    expect((await cli.rhizome(['graph', 'node', 'get', tower.id])).code).toBe(5);
    const inUse = await cli.rhizome(['graph', 'template', 'delete', 'Tower']);
    expect(inUse.code).toBe(1);
    expect((await cli.rhizome(['graph', 'template', 'delete', 'Tower', '--force'])).code).toBe(0);
  }, 240_000);

  it('lists and shows workflows, filtered by category and state', async () => {
    const created = await cli.server.call('POST', '/workflows', {
      cookie: cli.cookie,
      body: {
        name: 'Merge notes',
        category: 'notes',
        is_active: false,
        steps: [toolStep('merge', 'data.merge', { items: [{}] })],
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: string }).id;

    const all = await json<{ id: string; is_system: boolean }[]>(['graph', 'workflow', 'list']);
    expect(all.map((workflow) => workflow.id)).toContain(id);
    expect(all.some((workflow) => workflow.is_system)).toBe(true);
    const notes = await json<{ id: string }[]>(['graph', 'workflow', 'list', '-c', 'notes', '--inactive']);
    expect(notes.map((workflow) => workflow.id)).toEqual([id]);
    expect(await json<unknown[]>(['graph', 'workflow', 'list', '-c', 'notes', '--active'])).toEqual([]);
    const verbose = await cli.rhizome(['graph', 'workflow', 'list', '-v']);
    expect(verbose.output).toMatch(/^ID +CATEGORY +ACTIVE +STEPS +NAME +LAST RUN +DESCRIPTION/);
    expect((await cli.rhizome(['graph', 'workflow', 'list', '--active', '--inactive'])).code).toBe(2);

    const shown = await cli.rhizome(['graph', 'workflow', 'get', id]);
    expect(shown.code, shown.output).toBe(0);
    expect(shown.output).toMatch(/name +Merge notes/);
    expect(shown.output).toContain('1. merge (system_tool data.merge)');
    expect((await cli.rhizome(['graph', 'workflow', 'get', 'wf_missing'])).code).toBe(5);
  }, 90_000);
});
