import fs from 'node:fs/promises';
import path from 'node:path';
import { databaseEndpoints } from '@rhizome/contracts/api/databases';
import { opsEndpoints } from '@rhizome/contracts/api/ops';
import type { Command } from 'commander';
import JSZip from 'jszip';
import { ExitCode } from '../exit-codes.ts';
import { loadDoctorChecks } from '../local-modules.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';

interface DiagnosticsOptions {
  output?: string;
  database?: string;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** `rhizome-diagnostics-20261203-031500.zip`: sortable, and free of characters some file systems refuse. */
const defaultFileName = (now = new Date()) =>
  `rhizome-diagnostics-${now.toISOString().slice(0, 19).replace(/-|:/g, '').replace('T', '-')}.zip`;

/** What this command adds to the server's bundle: the server as the command sees it. */
async function clientEntries(remote: Remote, database: string | undefined): Promise<Map<string, string>> {
  const [edition, health, checks, described] = await Promise.all([
    remote.client.call(opsEndpoints.edition),
    remote.client.call(opsEndpoints.health),
    loadDoctorChecks().then(({ doctorChecks }) => doctorChecks(remote)),
    database ? remote.client.call(databaseEndpoints.get, { params: { name: database } }) : undefined,
  ]);
  const entries = new Map([
    ['edition.json', json(edition)],
    ['health.json', json(health)],
    ['doctor.json', json({ url: remote.url, checks })],
  ]);
  if (described) entries.set('database.json', json(described));
  return entries;
}

/**
 * The server's diagnostics bundle (system, settings without secrets, databases and counts, queue, services,
 * recent logs; secrets already scrubbed by the server) with the edition, health and doctor checks added.
 */
async function bundle(remote: Remote, database: string | undefined): Promise<JSZip> {
  const [{ blob }, added] = await Promise.all([
    remote.client.download(opsEndpoints.diagnostics, {}),
    clientEntries(remote, database),
  ]);
  const zip = await JSZip.loadAsync(await blob.arrayBuffer());
  for (const [name, text] of added) zip.file(name, text);
  const readme = (await zip.file('README.txt')?.async('string')) ?? '';
  zip.file(
    'README.txt',
    `${readme}\nAdded by the rhizome command:\n${[...added.keys()].map((name) => `  ${name}\n`).join('')}`,
  );
  // The key this command signs in with is never written, wherever a server might have echoed it.
  if (remote.apiKey)
    for (const entry of Object.values(zip.files).filter((file) => !file.dir)) {
      const text = await entry.async('string');
      if (text.includes(remote.apiKey)) zip.file(entry.name, text.split(remote.apiKey).join('[REDACTED]'));
    }
  return zip;
}

async function diagnostics(remote: Remote, options: DiagnosticsOptions): Promise<number> {
  const zip = await bundle(remote, options.database);
  const file = path.resolve(options.output ?? defaultFileName());
  const bytes = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  // Paths and settings are no one else's business: readable by the owner only.
  await fs.writeFile(file, bytes, { mode: 0o600 });
  const entries = Object.values(zip.files)
    .filter((entry) => !entry.dir)
    .map((entry) => entry.name);
  if (remote.json) printJson(remote.io, { path: file, bytes: bytes.length, entries });
  else remote.io.out(`Wrote ${file} (${(bytes.length / 1024).toFixed(1)} KB, ${entries.length} files)`);
  return ExitCode.ok;
}

export function registerDiagnostics(program: Command, runner: CommandRunner): void {
  program
    .command('diagnostics')
    .description('Write a diagnostics bundle (.zip) to attach to a bug report; it holds no keys or documents')
    .option('-o, --output <file>', 'where to write it (default ./rhizome-diagnostics-<timestamp>.zip)')
    .option('-d, --database <name>', "also describe this database (default: the server's active one only)")
    .addHelpText(
      'after',
      '\nHolds the version, health, settings without secrets, queue, databases and counts, recent logs and\nthe doctor checks. API keys, passwords, cookies and document contents are left out.',
    )
    .action(runner.remote((remote, options: DiagnosticsOptions) => diagnostics(remote, options)));
}
