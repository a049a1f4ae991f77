import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseCustomDomain } from './registry.ts';
import type { DomainDefinition } from './schema.ts';

/** A drop-in file that could not be used, and why. */
export interface DomainFileProblem {
  file: string;
  message: string;
}

/** What one reading of `<data_dir>/domains/` gave. */
export interface DomainFilesReport {
  directory: string;
  /** Domain names loaded, in file order. */
  loaded: string[];
  problems: DomainFileProblem[];
}

interface LoadedFiles {
  signature: string;
  domains: DomainDefinition[];
  report: DomainFilesReport;
}

/** The directory of drop-in domain files under a data directory. */
export function domainFilesDir(dataDir: string): string {
  return join(dataDir, 'domains');
}

const loadedByDir = new Map<string, LoadedFiles>();
/**
 * The data directory this process serves, remembered from the first caller that names it (the API at
 * start), so that callers which only hold a database (extraction, quality) see the same drop-in files.
 */
let processDataDir: string | null = null;

/**
 * The drop-in domains of the data directory (or of the one this process remembered). They are read
 * again when a file is added, removed or changed, so every process of a deployment agrees without a
 * message between them; a file that does not validate is left out and reported, never thrown.
 */
export function domainFiles(dataDir?: string): DomainDefinition[] {
  if (dataDir) processDataDir = dataDir;
  const root = dataDir ?? processDataDir;
  if (!root) return [];
  const directory = domainFilesDir(root);
  const signature = directorySignature(directory);
  const cached = loadedByDir.get(directory);
  if (cached?.signature === signature) return cached.domains;
  return load(directory, signature).domains;
}

/** Reads the drop-in files again, whatever changed, and says what they gave. */
export function reloadDomainFiles(dataDir: string): DomainFilesReport {
  processDataDir = dataDir;
  const directory = domainFilesDir(dataDir);
  return load(directory, directorySignature(directory)).report;
}

function load(directory: string, signature: string): LoadedFiles {
  const domains: DomainDefinition[] = [];
  const problems: DomainFileProblem[] = [];
  const fileOf = new Map<string, string>();
  for (const file of jsonFiles(directory)) {
    const parsed = readDomainFile(join(directory, file));
    if (!parsed.ok) {
      problems.push({ file, message: parsed.message });
      continue;
    }
    const earlier = fileOf.get(parsed.domain.name);
    if (earlier) {
      problems.push({ file, message: `domain '${parsed.domain.name}' is already defined by ${earlier}` });
      continue;
    }
    fileOf.set(parsed.domain.name, file);
    domains.push(Object.freeze(parsed.domain));
  }
  const loaded: LoadedFiles = {
    signature,
    domains,
    report: { directory, loaded: domains.map((domain) => domain.name), problems },
  };
  loadedByDir.set(directory, loaded);
  return loaded;
}

function readDomainFile(file: string): { ok: true; domain: DomainDefinition } | { ok: false; message: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { ok: false, message: `not readable JSON: ${(error as Error).message}` };
  }
  const parsed = parseCustomDomain(raw);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    message: parsed.issues.map((issue) => `${issue.loc.join('.') || '(file)'}: ${issue.msg}`).join('; '),
  };
}

function jsonFiles(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((file) => file.endsWith('.json'))
      .sort();
  } catch {
    return []; // no directory: no drop-in domains
  }
}

/** Names, sizes and change times of the JSON files: equal signatures mean nothing to read again. */
function directorySignature(directory: string): string {
  return jsonFiles(directory)
    .map((file) => {
      try {
        const stat = statSync(join(directory, file));
        return `${file}:${stat.size}:${stat.mtimeMs}`;
      } catch {
        return `${file}:gone`;
      }
    })
    .join('\n');
}
