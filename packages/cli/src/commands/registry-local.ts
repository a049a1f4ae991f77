import { CliFailure, ExitCode } from '../exit-codes.ts';
import { printJson, table } from '../output.ts';
import { manifestOf, removeStored, storedPackages, storedVersions, type StoredPackage } from '../package-store.ts';
import type { Remote } from '../remote.ts';
import { packageName } from './registry-transfer.ts';

export interface ListOptions {
  all?: boolean;
  format?: 'table' | 'json' | 'simple';
}

const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The newest pull of each package, or every stored version with `all`. */
function newestOfEach(packages: StoredPackage[]): StoredPackage[] {
  const newest = new Map<string, StoredPackage>();
  for (const stored of packages) newest.set(`${stored.owner}/${stored.name}`, stored);
  return [...newest.values()];
}

export async function listStored(remote: Remote, options: ListOptions): Promise<void> {
  const everything = await storedPackages();
  const shown = options.all ? everything : newestOfEach(everything);
  const format = remote.json ? 'json' : (options.format ?? 'table');
  if (format === 'json') return printJson(remote.io, shown);
  if (format === 'simple')
    return shown.forEach((stored) => remote.io.out(`${stored.owner}/${stored.name}@${stored.version}`));
  if (!shown.length) return remote.io.out("No packages pulled on this machine yet ('rhizome pull OWNER/NAME').");
  table(
    remote.io,
    ['PACKAGE', 'VERSION', 'SIZE', 'PULLED'],
    shown.map((stored) => [
      `${stored.owner}/${stored.name}`,
      stored.version,
      kilobytes(stored.bytes),
      stored.pulled_at.slice(0, 16).replace('T', ' '),
    ]),
  );
}

async function theStored(spec: string, version: string | undefined): Promise<StoredPackage[]> {
  const { owner, name } = packageName(spec);
  const found = await storedVersions(owner, name, version);
  if (!found.length)
    throw new CliFailure(`${spec}${version ? `@${version}` : ''} is not stored on this machine`, ExitCode.notFound);
  return found;
}

/** The stored copy's manifest (the newest pull, or `version`). */
export async function infoStored(remote: Remote, spec: string, version: string | undefined): Promise<void> {
  const stored = (await theStored(spec, version)).at(-1)!;
  const manifest = await manifestOf(stored);
  if (remote.json) return printJson(remote.io, { ...stored, ...manifest });
  remote.io.out(`${stored.owner}/${stored.name}@${stored.version}${manifest.title ? `: ${manifest.title}` : ''}`);
  if (manifest.description) remote.io.out(`  description ${manifest.description}`);
  remote.io.out(
    `  format      CCX ${manifest.ccx_version ?? 'unknown'}, ${manifest.entries} files, ${kilobytes(stored.bytes)}`,
  );
  remote.io.out(`  licence     ${manifest.license ?? 'not stated'}`);
  remote.io.out(`  pulled      ${stored.pulled_at}`);
  remote.io.out(`  file        ${stored.file}`);
}

export interface RemoveOptions {
  packageVersion?: string;
  all?: boolean;
  force?: boolean;
}

/**
 * Deletes stored copies: the version named, every version with --all, or the only one; what the database
 * imported from them stays. --force succeeds when nothing is stored.
 */
export async function removeFromStore(remote: Remote, spec: string, options: RemoveOptions): Promise<void> {
  if (options.all && options.packageVersion)
    throw new CliFailure('Give -v/--package-version or --all, not both', ExitCode.usage);
  const found = await theStored(spec, options.packageVersion).catch((error: unknown) => {
    if (options.force && error instanceof CliFailure && error.code === ExitCode.notFound) return [];
    throw error;
  });
  if (found.length > 1 && !options.all)
    throw new CliFailure(
      `${spec} is stored in ${found.length} versions (${found.map((stored) => stored.version).join(', ')}): name one with -v, or pass --all`,
      ExitCode.usage,
    );
  await removeStored(found);
  if (remote.json)
    return printJson(remote.io, { removed: found.map((stored) => `${stored.owner}/${stored.name}@${stored.version}`) });
  remote.io.out(
    found.length
      ? `Removed ${found.map((stored) => `${stored.owner}/${stored.name}@${stored.version}`).join(', ')} from this machine (the database keeps what it imported)`
      : `${spec} is not stored on this machine`,
  );
}
