import { edgeEndpoints, nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import type { Command } from 'commander';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { positiveInteger, repeated } from '../options.ts';
import { table } from '../output.ts';
import { changed, jsonObjectOf, propertiesOf } from '../properties.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { askNode } from './graph-questions.ts';
import { fields, formatOption, listTemplates, show, templateNamed, type Format } from './graph-shared.ts';
import { registerTemplates } from './graph-templates.ts';
import { registerWorkflows } from './graph-workflows.ts';

interface PageFlags {
  page?: number;
  limit?: number;
  format?: Format;
}

interface ChangeFlags {
  label?: string;
  set: string[];
  unset: string[];
}

const nodeOf = (remote: Remote, id: string) => remote.client.call(nodeEndpoints.get, { params: { node_id: id } });
const edgeOf = (remote: Remote, id: string) => remote.client.call(edgeEndpoints.get, { params: { edge_id: id } });

async function listNodes(remote: Remote, options: PageFlags & { template?: string }): Promise<void> {
  const templateId = options.template ? (await templateNamed(remote, options.template, 'node')).id : undefined;
  const result = await remote.client.call(nodeEndpoints.list, {
    query: { template_id: templateId, page: options.page, page_size: options.limit, include_stats: true },
  });
  show(remote, options.format, result.data, (nodes) => {
    if (!nodes.length) return remote.io.out('No nodes.');
    table(
      remote.io,
      ['ID', 'TEMPLATE', 'EDGES', 'LABEL'],
      nodes.map((node) => [
        node.id,
        node.template_id,
        'edge_count' in node ? String(node.edge_count ?? '') : '',
        node.label,
      ]),
    );
  });
}

async function getNode(remote: Remote, id: string, options: { format?: Format; includeLinks?: boolean }) {
  const node = await nodeOf(remote, id);
  const links = options.includeLinks
    ? (await remote.client.call(nodeEndpoints.connections, { params: { node_id: id }, query: {} })).data
    : undefined;
  show(remote, options.format, links ? { ...node, links } : node, () => {
    fields(remote, [
      ['id', node.id],
      ['label', node.label],
      ['template', node.template_id],
      ['source', node.source_id],
      ['edges', node.edge_count],
      ...Object.entries(node.properties).map(([key, value]): [string, unknown] => [`  ${key}`, value]),
    ]);
    for (const link of links ?? [])
      remote.io.out(`${link.direction === 'outgoing' ? '->' : '<-'} ${link.relationship} ${link.label} (${link.id})`);
  });
}

interface NodeCreateFlags {
  template?: string;
  label?: string;
  property: string[];
  jsonProps?: string;
  interactive?: boolean;
}

/** The node the flags describe; with -i, asked for what they leave out (the flags' properties win). */
async function nodeToCreate(remote: Remote, options: NodeCreateFlags) {
  const given = { ...jsonObjectOf(options.jsonProps), ...propertiesOf(options.property) };
  const named = options.template ? await templateNamed(remote, options.template, 'node') : undefined;
  if (options.interactive) {
    if (!remote.io.interactive) throw new CliFailure('-i needs a terminal to ask on', ExitCode.usage);
    const asked = await askNode(await listTemplates(remote, 'node'), { template: named, label: options.label });
    return { ...asked, properties: { ...asked.properties, ...given } };
  }
  if (!named || !options.label) throw new CliFailure('give --template and --label (or -i)', ExitCode.usage);
  return { template: named, label: options.label, properties: given };
}

async function createNode(remote: Remote, options: NodeCreateFlags): Promise<void> {
  const { template, label, properties } = await nodeToCreate(remote, options);
  const node = await remote.client.call(nodeEndpoints.create, {
    body: { template_id: template.id, label, properties },
  });
  show(remote, undefined, node, () => remote.io.out(`${node.id}: created ${template.name} '${node.label}'`));
}

async function updateNode(remote: Remote, id: string, options: ChangeFlags): Promise<void> {
  const node = await nodeOf(remote, id);
  const updated = await remote.client.call(nodeEndpoints.update, {
    params: { node_id: id },
    body: {
      ...(options.label ? { label: options.label } : {}),
      properties: changed(node.properties, options.set, options.unset),
    },
  });
  show(remote, undefined, updated, () => remote.io.out(`${id}: updated`));
}

/** A node with links is deleted (with them) only with --cascade or --force. */
async function deleteNode(remote: Remote, id: string, options: { force?: boolean; cascade?: boolean }) {
  const node = await nodeOf(remote, id);
  const links = node.edge_count ?? 0;
  if (links && !options.cascade && !options.force)
    throw new CliFailure(`${id} has ${links} link(s): pass --cascade to delete them with it`);
  await remote.client.call(nodeEndpoints.remove, { params: { node_id: id } });
  show(remote, undefined, { id, deleted: true, links }, () =>
    remote.io.out(`${id}: deleted${links ? ` with ${links} link(s)` : ''}`),
  );
}

async function listLinks(remote: Remote, options: PageFlags & { source?: string }): Promise<void> {
  const result = await remote.client.call(edgeEndpoints.list, {
    query: { source_node_id: options.source, page: options.page, page_size: options.limit },
  });
  show(remote, options.format, result.data, (edges) => {
    if (!edges.length) return remote.io.out('No links.');
    table(
      remote.io,
      ['ID', 'FROM', 'TO', 'LABEL'],
      edges.map((edge) => [edge.id, edge.source_node_id, edge.target_node_id, edge.label]),
    );
  });
}

async function getLink(remote: Remote, id: string, options: { format?: Format }): Promise<void> {
  const edge = await edgeOf(remote, id);
  show(remote, options.format, edge, () =>
    fields(remote, [
      ['id', edge.id],
      ['label', edge.label],
      ['template', edge.template_id],
      ['from', edge.source_node_id],
      ['to', edge.target_node_id],
      ...Object.entries(edge.properties).map(([key, value]): [string, unknown] => [`  ${key}`, value]),
    ]),
  );
}

async function createLink(
  remote: Remote,
  from: string,
  to: string,
  options: { type?: string; label?: string; bidirectional?: boolean; property: string[] },
): Promise<void> {
  if (!options.type) throw new CliFailure('give --type (an edge template id or name)', ExitCode.usage);
  const template = await templateNamed(remote, options.type, 'edge');
  const create = (source: string, target: string) =>
    remote.client.call(edgeEndpoints.create, {
      body: {
        template_id: template.id,
        source_node_id: source,
        target_node_id: target,
        label: options.label ?? template.name,
        properties: propertiesOf(options.property),
      },
    });
  const edges = [await create(from, to), ...(options.bidirectional ? [await create(to, from)] : [])];
  show(remote, undefined, edges, () => {
    for (const edge of edges)
      remote.io.out(`${edge.id}: ${edge.source_node_id} -${edge.label}-> ${edge.target_node_id}`);
  });
}

async function updateLink(remote: Remote, id: string, options: ChangeFlags): Promise<void> {
  const edge = await edgeOf(remote, id);
  const updated = await remote.client.call(edgeEndpoints.update, {
    params: { edge_id: id },
    body: {
      ...(options.label ? { label: options.label } : {}),
      properties: changed(edge.properties, options.set, options.unset),
    },
  });
  show(remote, undefined, updated, () => remote.io.out(`${id}: updated`));
}

/** The links a delete names: by id, or those from --source (to --target, of --type); more than one needs --force. */
async function deleteLinks(
  remote: Remote,
  id: string | undefined,
  options: { source?: string; target?: string; type?: string; force?: boolean },
): Promise<void> {
  let ids: string[];
  if (id) ids = [id];
  else {
    if (!options.source) throw new CliFailure('give a link id, or --source (with --target, --type)', ExitCode.usage);
    const templateId = options.type ? (await templateNamed(remote, options.type, 'edge')).id : undefined;
    ids = [];
    for (let page = 1; ; page++) {
      const result = await remote.client.call(edgeEndpoints.list, {
        query: { source_node_id: options.source, page, page_size: 1000 },
      });
      for (const edge of result.data)
        if (
          (!options.target || edge.target_node_id === options.target) &&
          (!templateId || edge.template_id === templateId)
        )
          ids.push(edge.id);
      if (!result.pagination.has_next) break;
    }
    if (!ids.length) throw new CliFailure('no link matches', ExitCode.notFound);
    if (ids.length > 1 && !options.force)
      throw new CliFailure(`${ids.length} links match: pass --force to delete them all`);
  }
  for (const edgeId of ids) await remote.client.call(edgeEndpoints.remove, { params: { edge_id: edgeId } });
  show(remote, undefined, { deleted: ids }, () => {
    for (const edgeId of ids) remote.io.out(`${edgeId}: deleted`);
  });
}

const pageFlags = (command: Command) =>
  command
    .option('-p, --page <n>', 'the page', positiveInteger)
    .option('-l, --limit <n>', 'at most this many per page', positiveInteger)
    .addOption(formatOption());

const changeFlags = (command: Command) =>
  command
    .option('-l, --label <label>', 'a new label')
    .option('-s, --set <key=value>', 'set a property (repeatable; the value is JSON or text)', repeated, [])
    .option('-u, --unset <key>', 'remove a property (repeatable)', repeated, []);

export function registerGraph(program: Command, runner: CommandRunner): void {
  const graph = program.command('graph').description('Nodes, links and templates of the knowledge graph');
  const node = graph.command('node').description('The nodes (entities) of the graph');
  pageFlags(
    node.command('list').description('List nodes').option('-t, --template <template>', 'of this template'),
  ).action(runner.remote((remote, options: PageFlags & { template?: string }) => listNodes(remote, options)));
  node
    .command('get')
    .description('Show a node')
    .argument('<id>')
    .addOption(formatOption())
    .option('-l, --include-links', 'with the nodes it links to and from')
    .action(
      runner.remote((remote, id: string, options: { format?: Format; includeLinks?: boolean }) =>
        getNode(remote, id, options),
      ),
    );
  node
    .command('create')
    .description('Create a node')
    .option('-t, --template <template>', 'its node template (id or name)')
    .option('-l, --label <label>', 'its label')
    .option('-p, --property <key=value>', 'a property (repeatable; the value is JSON or text)', repeated, [])
    .option('-j, --json-props <json>', 'properties as a JSON object')
    .option('-i, --interactive', 'ask for the template, label and each property the flags leave out')
    .action(runner.remote((remote, options: NodeCreateFlags) => createNode(remote, options)));
  changeFlags(node.command('update').description('Change a node').argument('<id>')).action(
    runner.remote((remote, id: string, options: ChangeFlags) => updateNode(remote, id, options)),
  );
  node
    .command('delete')
    .description('Delete a node')
    .argument('<id>')
    .option('-c, --cascade', 'also when it has links (they are deleted with it)')
    .option('-f, --force', 'the same as --cascade')
    .action(
      runner.remote((remote, id: string, options: { force?: boolean; cascade?: boolean }) =>
        deleteNode(remote, id, options),
      ),
    );

  const link = graph.command('link').description('The links (relationships) between nodes');
  pageFlags(
    link.command('list').description('List links').option('-s, --source <node>', 'only those from this node'),
  ).action(runner.remote((remote, options: PageFlags & { source?: string }) => listLinks(remote, options)));
  link
    .command('get')
    .description('Show a link')
    .argument('<id>')
    .addOption(formatOption())
    .action(runner.remote((remote, id: string, options: { format?: Format }) => getLink(remote, id, options)));
  link
    .command('create')
    .description('Link two nodes')
    .argument('<source-node>')
    .argument('<target-node>')
    .option('-t, --type <template>', 'its edge template (id or name)')
    .option('-l, --label <label>', 'its label (default the template name)')
    .option('-b, --bidirectional', 'also link the target back to the source')
    .option('-p, --property <key=value>', 'a property (repeatable)', repeated, [])
    .action(
      runner.remote(
        (
          remote,
          from: string,
          to: string,
          options: { type?: string; label?: string; bidirectional?: boolean; property: string[] },
        ) => createLink(remote, from, to, options),
      ),
    );
  changeFlags(link.command('update').description('Change a link').argument('<id>')).action(
    runner.remote((remote, id: string, options: ChangeFlags) => updateLink(remote, id, options)),
  );
  link
    .command('delete')
    .description('Delete a link, or the links from --source (to --target, of --type)')
    .argument('[id]')
    .option('-s, --source <node>', 'links from this node')
    .option('-t, --target <node>', 'links to this node')
    .option('--type <template>', 'links of this edge template')
    .option('-f, --force', 'delete every link that matches, not only one')
    .action(
      runner.remote(
        (
          remote,
          id: string | undefined,
          options: { source?: string; target?: string; type?: string; force?: boolean },
        ) => deleteLinks(remote, id, options),
      ),
    );
  registerTemplates(graph, runner);
  registerWorkflows(graph, runner);
}
