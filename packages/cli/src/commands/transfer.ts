import fs from 'node:fs/promises';
import path from 'node:path';
import { backupEndpoints } from '@rhizome/contracts/api/backup';
import { exportEndpoints } from '@rhizome/contracts/api/exports';
import { queueEndpoints } from '@rhizome/contracts/api/queue';
import type { Command } from 'commander';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { printJson, table } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';
import { waitForTask } from './task-wait.ts';

interface ExportOptions {
  output?: string;
  templates: boolean;
  knowledge: boolean;
  workflows: boolean;
  sources: boolean;
  embeddings: boolean;
}

async function exportPackage(remote: Remote, argument: string | undefined, options: ExportOptions): Promise<void> {
  if (argument && options.output && argument !== options.output)
    throw new CliFailure('Give the file as an argument or with -o/--output, not both', ExitCode.usage);
  const file = argument ?? options.output;
  const { task_id } = await remote.client.call(exportEndpoints.exportAll, {
    query: {
      include_templates: options.templates,
      include_knowledge: options.knowledge,
      include_workflows: options.workflows,
      include_sources: options.sources,
      include_embeddings: options.embeddings,
    },
  });
  await waitForTask(remote, task_id, 'the export');
  const { blob, filename } = await remote.client.download(exportEndpoints.download, { params: { task_id } });
  const target = path.resolve(file ?? filename ?? `rhizome-${task_id}.ccx`);
  await fs.writeFile(target, Buffer.from(await blob.arrayBuffer()));
  if (remote.json) printJson(remote.io, { file: target, bytes: blob.size, task_id });
  else remote.io.out(`Exported to ${target} (${blob.size} bytes)`);
}

interface ImportOptions {
  merge?: boolean;
  replace?: boolean;
  wait: boolean;
}

/** Uploads a package to import, waits for the import and answers its task id and result. */
export async function importBytes(
  remote: Remote,
  bytes: Uint8Array<ArrayBuffer>,
  filename: string,
  merge: boolean,
): Promise<{ task_id: string; result: Record<string, unknown> }> {
  const queued = await remote.client.upload(exportEndpoints.import, [new File([bytes], filename)], { merge });
  await waitForTask(remote, queued.task_id, 'the import');
  const { result } = await remote.client.call(queueEndpoints.result, { params: { task_id: queued.task_id } });
  return { task_id: queued.task_id, result: (result ?? {}) as Record<string, unknown> };
}

/** Merges unless `--replace` is given: replacing is never what happens by leaving a flag out. */
async function importPackage(remote: Remote, file: string, options: ImportOptions): Promise<void> {
  if (options.merge && options.replace) throw new CliFailure('Give --merge or --replace, not both', ExitCode.usage);
  const merge = !options.replace;
  const bytes = await fs.readFile(file).catch(() => {
    throw new CliFailure(`'${file}' cannot be read`, ExitCode.notFound);
  });
  const mode = merge ? 'merge' : 'replace';
  if (!options.wait) {
    const queued = await remote.client.upload(exportEndpoints.import, [new File([bytes], path.basename(file))], {
      merge,
    });
    if (remote.json) printJson(remote.io, { task_id: queued.task_id, status: queued.status, mode });
    else remote.io.out(`Import queued (task ${queued.task_id}, ${merge ? 'merging' : 'replacing the contents'})`);
    return;
  }
  const { task_id, result } = await importBytes(remote, bytes, path.basename(file), merge);
  const safety_backup = (result as { safety_backup?: string | null }).safety_backup ?? null;
  if (remote.json) printJson(remote.io, { task_id, status: 'completed', mode, safety_backup });
  else if (merge) remote.io.out(`Imported ${file} (merged with what was there)`);
  else remote.io.out(`Imported ${file} (replaced what was there; it is kept in the backup ${safety_backup})`);
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `export` and `import`, on the program and again as `graph package export|load`. */
function registerPackageCommands(parent: Command, runner: CommandRunner, names: { load: string }): void {
  parent
    .command('export')
    .description('Export the active database as a .ccx package')
    .argument('[file]', "where to write it (default: the server's file name)")
    .option('-o, --output <file>', 'where to write it (the same as the argument)')
    .option('--no-templates', 'leave the templates out')
    .option('--no-knowledge', 'leave the nodes and edges out')
    .option('--no-workflows', 'leave the workflows out')
    .option('--no-sources', 'leave the sources, their chunks and citations out')
    .option('--embeddings', 'include node and chunk vectors')
    .action(
      runner.remote((remote, file: string | undefined, options: ExportOptions) => exportPackage(remote, file, options)),
    );
  parent
    .command(names.load)
    .description('Import a .ccx package into the active database')
    .argument('<file>')
    .option('--merge', 'add alongside what is there (the default)')
    .option('--replace', 'replace what is there (after a safety backup)')
    .option('--no-wait', 'return once the import is queued')
    .action(runner.remote((remote, file: string, options: ImportOptions) => importPackage(remote, file, options)));
}

export function registerTransfer(program: Command, runner: CommandRunner): void {
  registerPackageCommands(program, runner, { load: 'import' });
  const graph = program.commands.find((command) => command.name() === 'graph');
  if (graph)
    registerPackageCommands(
      graph.command('package').description('Export and load .ccx packages (as export and import)'),
      runner,
      { load: 'load' },
    );

  const backup = program.command('backup').description('Back up and restore the active database');
  backup
    .command('create')
    .description('Back up the active database now')
    .action(
      runner.remote(async (remote) => {
        const created = await remote.client.call(backupEndpoints.create);
        if (remote.json) printJson(remote.io, created);
        else remote.io.out(`Created ${created.filename} (${megabytes(created.size)})`);
      }),
    );
  backup
    .command('ls', { isDefault: true })
    .description('List backups, newest first')
    .action(
      runner.remote(async (remote) => {
        const { data } = await remote.client.call(backupEndpoints.list, { query: { page_size: 200 } });
        if (remote.json) return printJson(remote.io, data);
        if (!data.length) return remote.io.out('No backups.');
        table(
          remote.io,
          ['FILE', 'SIZE', 'CREATED'],
          data.map((entry) => [entry.filename, megabytes(entry.size), entry.created_at]),
        );
      }),
    );
  backup
    .command('restore')
    .description('Replace the active database with a backup (after a safety backup)')
    .argument('<file>')
    .action(
      runner.remote(async (remote, filename: string) => {
        const restored = await remote.client.call(backupEndpoints.restore, { params: { filename } });
        if (remote.json) printJson(remote.io, restored);
        else remote.io.out(restored.message);
      }),
    );
}
