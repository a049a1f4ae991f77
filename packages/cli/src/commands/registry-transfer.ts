import fs from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { registryEndpoints } from '@rhizome/contracts/api/registry';
import { CliFailure, ExitCode } from '../exit-codes.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';
import { keepPackage, storedVersions } from '../package-store.ts';
import { importBytes } from './transfer.ts';

/** `OWNER/NAME` as the registry names a package; anything else is a usage error. */
export function packageName(spec: string): { owner: string; name: string } {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(spec);
  if (!match) throw new CliFailure(`'${spec}' is not a package name: give it as OWNER/NAME`, ExitCode.usage);
  return { owner: match[1], name: match[2] };
}

export interface PullOptions {
  packageVersion?: string;
  output?: string;
  extract?: boolean;
  force?: boolean;
}

/** "2 nodes imported, 1 template skipped" from an import's counters, leaving out the zeros. */
function importedCounts(stats: Record<string, unknown>): string {
  const parts = Object.entries(stats).flatMap(([key, value]) => {
    const counter = /^(\w+?)s?_(imported|updated|skipped|restored)$/.exec(key);
    if (!counter || typeof value !== 'number' || value === 0) return [];
    return [`${value} ${counter[1]}${value === 1 ? '' : 's'} ${counter[2]}`];
  });
  return parts.length ? parts.join(', ') : 'nothing new';
}

/** The entries of a .ccx unpacked into `dir`; an entry that would land outside it is refused. */
async function unpack(bytes: Buffer, dir: string): Promise<number> {
  const zip = await JSZip.loadAsync(bytes).catch(() => {
    throw new CliFailure('the registry sent a package that is not a zip archive');
  });
  const files = Object.values(zip.files).filter((entry) => !entry.dir);
  for (const entry of files) {
    const target = path.resolve(dir, entry.name);
    if (!target.startsWith(`${path.resolve(dir)}${path.sep}`))
      throw new CliFailure(`the package holds '${entry.name}', which points outside ${dir}: nothing more unpacked`);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, await entry.async('nodebuffer'));
  }
  return files.length;
}

/** The package's .ccx written into the directory `output` (or unpacked there), not imported. */
async function downloadPackage(remote: Remote, owner: string, name: string, options: PullOptions): Promise<void> {
  const version = options.packageVersion ?? 'latest';
  const { bytes, filename } = await fetchPackage(remote, owner, name, version);
  const dir = path.resolve(options.output ?? '.');
  await fs.mkdir(dir, { recursive: true });
  const pulled = `${owner}/${name}@${version}`;
  if (options.extract) {
    const target = path.join(dir, name);
    const files = await unpack(bytes, target);
    if (remote.json) return printJson(remote.io, { package: pulled, directory: target, files });
    return remote.io.out(`Unpacked ${pulled} into ${target} (${files} files)`);
  }
  const file = path.join(dir, filename ?? `${name}-${version}.ccx`);
  await fs.writeFile(file, bytes);
  if (remote.json) return printJson(remote.io, { package: pulled, file, bytes: bytes.length });
  remote.io.out(`Downloaded ${pulled} to ${file} (${bytes.length} bytes)`);
}

async function fetchPackage(remote: Remote, owner: string, name: string, version: string) {
  const { blob, filename } = await remote.client.download(registryEndpoints.download, {
    params: { owner, name },
    query: { version },
  });
  return { bytes: Buffer.from(await blob.arrayBuffer()), filename };
}

/**
 * Imports a registry package into the active database (merged) and keeps a copy in this machine's package
 * store (`lexicon list`); a version asked for by number that the store holds is imported from there, unless
 * `--force` downloads it again. With --output or --extract it is downloaded instead.
 */
export async function pullPackage(remote: Remote, spec: string, options: PullOptions): Promise<void> {
  const { owner, name } = packageName(spec);
  if (options.output || options.extract) return downloadPackage(remote, owner, name, options);
  const requested = options.packageVersion ?? 'latest';
  const [kept] = requested === 'latest' || options.force ? [] : await storedVersions(owner, name, requested);
  const stored =
    kept ?? (await keepPackage(owner, name, requested, (await fetchPackage(remote, owner, name, requested)).bytes));
  const pulled = `${owner}/${name}@${stored.version}`;
  if (!remote.json)
    remote.io.err(`${kept ? 'Importing the stored copy of' : 'Downloaded'} ${pulled}; importing it (merged)`);
  const { task_id, result: stats } = await importBytes(
    remote,
    await fs.readFile(stored.file),
    `${name}-${stored.version}.ccx`,
    true,
  );
  if (remote.json) return printJson(remote.io, { package: pulled, task_id, stats, stored: stored.file });
  remote.io.out(`Imported ${pulled}: ${importedCounts(stats)}`);
  for (const warning of (stats.warnings as string[] | undefined) ?? []) remote.io.err(`warning: ${warning}`);
}

export interface PushOptions {
  message?: string;
  public?: boolean;
  private?: boolean;
}

/** The package to publish: PATH itself, or the one .ccx in the directory PATH. */
async function packageFile(target: string): Promise<string> {
  const stat = await fs.stat(target).catch(() => {
    throw new CliFailure(`'${target}' does not exist`, ExitCode.notFound);
  });
  if (!stat.isDirectory()) return target;
  const packages = (await fs.readdir(target)).filter((entry) => entry.toLowerCase().endsWith('.ccx'));
  if (packages.length === 1) return path.join(target, packages[0]);
  if (!packages.length) throw new CliFailure(`'${target}' holds no .ccx package`, ExitCode.notFound);
  throw new CliFailure(`'${target}' holds ${packages.length} .ccx packages: name the one to push`, ExitCode.usage);
}

/** Publishes a .ccx to the registry with the server's registry login. */
export async function pushPackage(remote: Remote, target: string, options: PushOptions): Promise<void> {
  if (options.public && options.private) throw new CliFailure('Give --public or --private, not both', ExitCode.usage);
  const file = await packageFile(target);
  const bytes = await fs.readFile(file);
  const published = await remote.client.upload(
    registryEndpoints.upload,
    [new File([bytes], path.basename(file))],
    undefined,
    {
      query: { public: !options.private, message: options.message ?? null },
    },
  );
  if (remote.json) return printJson(remote.io, published);
  remote.io.out(
    `Published ${published.owner_username}/${published.name} (${published.is_public ? 'public' : 'private'}, ${published.version_count} version${published.version_count === 1 ? '' : 's'})`,
  );
}
