import fs from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { resolveConfigDir } from '@rhizome/core/paths';
import { CliFailure } from './exit-codes.ts';

/** A registry package pulled by this machine, kept so it can be looked at and imported again without the registry. */
export interface StoredPackage {
  owner: string;
  name: string;
  version: string;
  file: string;
  bytes: number;
  pulled_at: string;
}

/** What a stored package's manifest says about it. */
export interface StoredPackageManifest {
  title: string | null;
  description: string | null;
  license: string | null;
  ccx_version: string | null;
  entries: number;
}

const storeDir = (env: NodeJS.ProcessEnv = process.env) => path.join(resolveConfigDir(env), 'packages');

/** A file name part that stays inside its directory: path separators and dot-only names are refused. */
function safePart(part: string, what: string): string {
  if (!part || part === '.' || part === '..' || /[/\\\0]/.test(part))
    throw new CliFailure(`the registry named a package ${what} '${part}' that cannot be stored`);
  return part;
}

async function readManifest(bytes: Buffer): Promise<{ manifest: Record<string, unknown>; entries: number }> {
  const zip = await JSZip.loadAsync(bytes).catch(() => {
    throw new CliFailure('the package is not a zip archive');
  });
  const text = await zip.file('manifest.json')?.async('string');
  let manifest: Record<string, unknown> = {};
  try {
    manifest = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    throw new CliFailure('the package has a manifest.json that is not JSON');
  }
  return { manifest, entries: Object.values(zip.files).filter((entry) => !entry.dir).length };
}

const textOf = (value: unknown) => (typeof value === 'string' && value ? value : null);

/** Keeps a pulled package under its owner, name and the version its manifest declares (else `requested`). */
export async function keepPackage(
  owner: string,
  name: string,
  requested: string,
  bytes: Buffer,
): Promise<StoredPackage> {
  const { manifest } = await readManifest(bytes);
  const version = textOf(manifest.package_version) ?? requested;
  const dir = path.join(storeDir(), safePart(owner, 'owner'), safePart(name, 'name'));
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${safePart(version, 'version')}.ccx`);
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, bytes);
  await fs.rename(temporary, file);
  return { owner, name, version, file, bytes: bytes.length, pulled_at: new Date().toISOString() };
}

async function entriesOf(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
}

/** Every stored package version, by owner, name, then version (newest pull last within a name). */
export async function storedPackages(): Promise<StoredPackage[]> {
  const root = storeDir();
  const found: StoredPackage[] = [];
  for (const owner of (await entriesOf(root)).sort()) {
    for (const name of (await entriesOf(path.join(root, owner))).sort()) {
      for (const entry of await entriesOf(path.join(root, owner, name))) {
        if (!entry.endsWith('.ccx')) continue;
        const file = path.join(root, owner, name, entry);
        const stat = await fs.stat(file);
        found.push({
          owner,
          name,
          version: entry.slice(0, -'.ccx'.length),
          file,
          bytes: stat.size,
          pulled_at: stat.mtime.toISOString(),
        });
      }
    }
  }
  return found.sort(
    (a, b) => a.owner.localeCompare(b.owner) || a.name.localeCompare(b.name) || a.pulled_at.localeCompare(b.pulled_at),
  );
}

/** The stored versions of one package; `version` narrows it to that one. */
export async function storedVersions(owner: string, name: string, version?: string): Promise<StoredPackage[]> {
  return (await storedPackages()).filter(
    (stored) => stored.owner === owner && stored.name === name && (!version || stored.version === version),
  );
}

export async function manifestOf(stored: StoredPackage): Promise<StoredPackageManifest> {
  const { manifest, entries } = await readManifest(await fs.readFile(stored.file));
  return {
    title: textOf(manifest.name),
    description: textOf(manifest.description),
    license: textOf(manifest.license),
    ccx_version: textOf(manifest.ccx_version),
    entries,
  };
}

/** Deletes stored versions, and the package's directory once it holds none. */
export async function removeStored(packages: StoredPackage[]): Promise<void> {
  for (const stored of packages) await fs.rm(stored.file, { force: true });
  for (const dir of new Set(packages.map((stored) => path.dirname(stored.file)))) {
    if (!(await entriesOf(dir)).length) await fs.rmdir(dir).catch(() => undefined);
  }
}
