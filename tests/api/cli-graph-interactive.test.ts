import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnRhizomeInTerminal, startCliServer, type CliServer } from '../support/cli.ts';

const down = '\x1b[B';
const enter = '\r';

interface Template {
  id: string;
  name: string;
  template_type: string;
  properties: { name: string; property_type: string }[];
}

/** `graph template create -i` and `graph node create -i` as a person answers them on a terminal. */
describe('rhizome graph … create -i on a terminal', () => {
  let cli: CliServer;
  const onTerminal = (args: string[]) =>
    spawnRhizomeInTerminal(args, cli.work, { RHIZOME_URL: cli.server.url, RHIZOME_API_KEY: cli.key });
  beforeAll(async () => {
    cli = await startCliServer();
  }, 60_000);
  afterAll(() => cli.server.stop());

  it('creates a template from its answers, then a node of it with typed properties', async () => {
    const template = onTerminal(['graph', 'template', 'create', '-i']);
    try {
      await template.sees('Name');
      template.type(`Beacon${enter}`);
      await template.sees('Kind');
      template.type(enter);
      await template.sees('Description');
      template.type(`A light that guides ships${enter}`);
      await template.sees('Property name');
      template.type(`range_km${enter}`);
      await template.sees('Type of range_km');
      // string, text, integer: two steps down.
      template.type(`${down}${down}${enter}`);
      await template.sees('Property name');
      template.type(`lit${enter}`);
      await template.sees('Type of lit');
      template.type(`${down}${down}${down}${down}${enter}`);
      await template.sees('Property name');
      template.type(enter);
      expect(await template.exited, template.output()).toBe(0);
    } finally {
      await template.stop();
    }
    const templates = (
      (await cli.server.call('GET', '/templates?page_size=100', { cookie: cli.cookie })).body as { data: Template[] }
    ).data;
    const beacon = templates.find((candidate) => candidate.name === 'Beacon');
    expect(beacon).toMatchObject({ template_type: 'node' });
    expect(beacon?.properties.map((property) => [property.name, property.property_type])).toEqual([
      ['range_km', 'integer'],
      ['lit', 'boolean'],
    ]);

    const node = onTerminal(['graph', 'node', 'create', '-i', '-t', 'Beacon']);
    try {
      await node.sees('Label');
      node.type(`Kestrel Point light${enter}`);
      await node.sees('range_km (integer)');
      node.type(`far${enter}`);
      await node.sees('range_km is a integer');
      node.type(`${'\x7f'.repeat(3)}31${enter}`);
      await node.sees('lit (boolean)');
      node.type(enter);
      await node.sees('created Beacon');
      expect(await node.exited, node.output()).toBe(0);
    } finally {
      await node.stop();
    }
    const nodes = (
      (await cli.server.call('GET', '/nodes?page_size=100', { cookie: cli.cookie })).body as {
        data: { label: string; template_id: string; properties: Record<string, unknown> }[];
      }
    ).data;
    expect(nodes.find((candidate) => candidate.label === 'Kestrel Point light')).toMatchObject({
      template_id: beacon?.id,
      properties: { range_km: 31, lit: true },
    });
  }, 120_000);

  it('refuses -i without a terminal instead of waiting for answers', async () => {
    const { code, output } = await cli.rhizome(['graph', 'node', 'create', '-i']);
    expect(code).toBe(2);
    expect(output).toContain('-i needs a terminal');
  }, 60_000);
});
