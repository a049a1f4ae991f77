import { workflowEndpoints, type WorkflowSummaryBody } from '@rhizome/contracts/api/workflows';
import type { Command } from 'commander';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { table } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { fields, formatOption, show, type Format } from './graph-shared.ts';

interface ListFlags {
  format?: Format;
  verbose?: boolean;
  category?: string;
  active?: boolean;
  inactive?: boolean;
}

async function listWorkflows(remote: Remote, options: ListFlags): Promise<void> {
  if (options.active && options.inactive) throw new CliFailure('Give --active or --inactive, not both', ExitCode.usage);
  const isActive = options.active ? true : options.inactive ? false : undefined;
  const workflows: WorkflowSummaryBody[] = [];
  for (let page = 1; ; page++) {
    const result = await remote.client.call(workflowEndpoints.list, {
      query: { page, page_size: 100, category: options.category, is_active: isActive },
    });
    workflows.push(...result.data);
    if (!result.pagination.has_next) break;
  }
  show(remote, options.format, workflows, () => {
    if (!workflows.length) return remote.io.out('No workflows.');
    const head = ['ID', 'CATEGORY', 'ACTIVE', 'STEPS', 'NAME'];
    table(
      remote.io,
      options.verbose ? [...head, 'LAST RUN', 'DESCRIPTION'] : head,
      workflows.map((workflow) => {
        const row = [
          workflow.id,
          workflow.category,
          workflow.is_active ? 'yes' : 'no',
          String(workflow.step_count),
          workflow.name,
        ];
        return options.verbose ? [...row, workflow.last_executed_at ?? '-', workflow.description ?? ''] : row;
      }),
    );
  });
}

async function getWorkflow(remote: Remote, id: string, options: { format?: Format }): Promise<void> {
  const workflow = await remote.client.call(workflowEndpoints.get, { params: { workflow_id: id } });
  show(remote, options.format, workflow, () => {
    fields(remote, [
      ['id', workflow.id],
      ['name', workflow.name],
      ['category', workflow.category],
      ['active', workflow.is_active ? 'yes' : 'no'],
      ['system', workflow.is_system ? 'yes' : 'no'],
      ['version', workflow.version],
      ['description', workflow.description],
      ['last run', workflow.last_executed_at],
    ]);
    for (const step of workflow.steps)
      remote.io.out(`  ${step.step_number}. ${step.name} (${step.tool_type} ${step.tool_id})`);
  });
}

/** `graph workflow list|get`: the workflows of the active database, read only (the web builder edits them). */
export function registerWorkflows(graph: Command, runner: CommandRunner): void {
  const workflow = graph.command('workflow').description('The workflows of the active database');
  workflow
    .command('list')
    .description('List workflows')
    .addOption(formatOption())
    .option('-v, --verbose', 'with the last run and the description')
    .option('-c, --category <category>', 'of this category')
    .option('--active', 'active ones only')
    .option('--inactive', 'inactive ones only')
    .action(runner.remote((remote, options: ListFlags) => listWorkflows(remote, options)));
  workflow
    .command('get')
    .description('Show a workflow with its steps')
    .argument('<id>')
    .addOption(formatOption())
    .action(runner.remote((remote, id: string, options: { format?: Format }) => getWorkflow(remote, id, options)));
}
