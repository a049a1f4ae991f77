import {
  propertyTypeNames,
  templateEndpoints,
  templateTypeNames,
  type PropertyTypeName,
  type TemplateResponse,
  type TemplateTypeName,
} from '@rhizome/contracts/api/templates';
import { Option, type Command } from 'commander';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { repeated } from '../options.ts';
import { table } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { askTemplate, type TemplateAnswers } from './graph-questions.ts';
import { fields, formatOption, listTemplates, show, templateNamed, type Format } from './graph-shared.ts';

/** A `name[:type]` property option (type `string` when left out). */
function propertyOf(spec: string) {
  const [name, type = 'string'] = spec.split(':');
  if (!name.trim()) throw new CliFailure(`'${spec}' has no property name`, ExitCode.usage);
  if (!(propertyTypeNames as readonly string[]).includes(type))
    throw new CliFailure(`'${type}' is not a property type (${propertyTypeNames.join(', ')})`, ExitCode.usage);
  return { name, display_name: name, property_type: type as PropertyTypeName };
}

const propertyList = (template: TemplateResponse) =>
  template.properties.map((property) => `${property.name}:${property.property_type}`).join(', ');

async function list(remote: Remote, options: { type?: TemplateTypeName; verbose?: boolean; format?: Format }) {
  const templates = await listTemplates(remote, options.type);
  show(remote, options.format, templates, () =>
    table(
      remote.io,
      ['ID', 'TYPE', 'NAME', ...(options.verbose ? ['PROPERTIES'] : [])],
      templates.map((template) => [
        template.id,
        template.template_type,
        template.name,
        ...(options.verbose ? [propertyList(template)] : []),
      ]),
    ),
  );
}

async function get(remote: Remote, name: string, options: { format?: Format }): Promise<void> {
  const template = await templateNamed(remote, name);
  show(remote, options.format, template, () =>
    fields(remote, [
      ['id', template.id],
      ['name', template.name],
      ['type', template.template_type],
      ['system', template.is_system],
      ['description', template.description],
      ['properties', propertyList(template)],
    ]),
  );
}

interface CreateFlags {
  name?: string;
  type?: TemplateTypeName;
  description?: string;
  property: string[];
  interactive?: boolean;
}

/** The template the flags describe; with -i, asked for what they leave out. */
async function templateToCreate(remote: Remote, options: CreateFlags): Promise<TemplateAnswers> {
  const given = options.property.map(propertyOf);
  if (options.interactive) {
    if (!remote.io.interactive) throw new CliFailure('-i needs a terminal to ask on', ExitCode.usage);
    const asked = await askTemplate({ name: options.name, type: options.type });
    return {
      ...asked,
      description: options.description ?? asked.description,
      properties: [...given, ...asked.properties],
    };
  }
  if (!options.name) throw new CliFailure('give --name (or -i)', ExitCode.usage);
  return { name: options.name, type: options.type ?? 'node', description: options.description, properties: given };
}

async function create(remote: Remote, options: CreateFlags): Promise<void> {
  const { name, type, description, properties } = await templateToCreate(remote, options);
  const template = await remote.client.call(templateEndpoints.create, {
    body: { name, template_type: type, ...(description ? { description } : {}), properties },
  });
  show(remote, undefined, template, () =>
    remote.io.out(`${template.id}: created ${template.template_type} template '${template.name}'`),
  );
}

interface UpdateFlags {
  name?: string;
  description?: string;
  addProperty: string[];
  removeProperty: string[];
}

async function update(remote: Remote, name: string, options: UpdateFlags): Promise<void> {
  const template = await templateNamed(remote, name);
  const added = options.addProperty.map(propertyOf);
  const missing = options.removeProperty.filter(
    (gone) => !template.properties.some((property) => property.name === gone),
  );
  if (missing.length)
    throw new CliFailure(`'${template.name}' has no property ${missing.join(', ')}`, ExitCode.notFound);
  const kept = template.properties.filter(
    (property) =>
      !options.removeProperty.includes(property.name) &&
      !added.some((replacement) => replacement.name === property.name),
  );
  const changesProperties = added.length > 0 || options.removeProperty.length > 0;
  const updated = await remote.client.call(templateEndpoints.update, {
    params: { template_id: template.id },
    body: {
      ...(options.name ? { name: options.name } : {}),
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(changesProperties ? { properties: [...kept, ...added] } : {}),
    },
  });
  show(remote, undefined, updated, () => remote.io.out(`${updated.id}: updated`));
}

async function remove(remote: Remote, name: string, options: { force?: boolean }): Promise<void> {
  const template = await templateNamed(remote, name);
  await remote.client.call(templateEndpoints.remove, {
    params: { template_id: template.id },
    query: { force: options.force ?? false },
  });
  show(remote, undefined, { id: template.id, deleted: true }, () => remote.io.out(`${template.id}: deleted`));
}

const typeOption = () => new Option('-t, --type <type>', 'node or edge').choices(templateTypeNames);

export function registerTemplates(graph: Command, runner: CommandRunner): void {
  const templates = graph.command('template').description('The node and edge templates (types) of the graph');
  templates
    .command('list')
    .description('List templates')
    .addOption(typeOption())
    .option('-v, --verbose', 'with their properties')
    .addOption(formatOption())
    .action(
      runner.remote((remote, options: { type?: TemplateTypeName; verbose?: boolean; format?: Format }) =>
        list(remote, options),
      ),
    );
  templates
    .command('get')
    .description('Show a template (by id or name)')
    .argument('<template>')
    .addOption(formatOption())
    .action(runner.remote((remote, name: string, options: { format?: Format }) => get(remote, name, options)));
  templates
    .command('create')
    .description('Create a template')
    .option('-n, --name <name>', 'its name')
    .addOption(typeOption().default(undefined, 'node'))
    .option('--description <text>', 'what it stands for')
    .option(
      '-p, --property <name[:type]>',
      `a property (repeatable; type one of ${propertyTypeNames.join(', ')})`,
      repeated,
      [],
    )
    .option('-i, --interactive', 'ask for the name, kind, description and properties the flags leave out')
    .action(runner.remote((remote, options: CreateFlags) => create(remote, options)));
  templates
    .command('update')
    .description('Change a template (by id or name)')
    .argument('<template>')
    .option('-n, --name <name>', 'a new name')
    .option('--description <text>', 'a new description')
    .option('-a, --add-property <name[:type]>', 'add (or replace) a property (repeatable)', repeated, [])
    .option('-r, --remove-property <name>', 'remove a property (repeatable)', repeated, [])
    .action(runner.remote((remote, name: string, options: UpdateFlags) => update(remote, name, options)));
  templates
    .command('delete')
    .description('Delete a template (by id or name)')
    .argument('<template>')
    .option('-f, --force', 'also when nodes or links use it (they are deleted with it)')
    .action(runner.remote((remote, name: string, options: { force?: boolean }) => remove(remote, name, options)));
}
