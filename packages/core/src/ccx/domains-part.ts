import path from 'node:path';
import type { DomainDefinition } from '../sources/index.ts';
import { DataFileWriter } from './data-file.ts';
import type { ContentFile } from './format-v2.ts';
import { objectOrNull } from './model.ts';

/**
 * The custom domains a package carries: an optional `domains.json` ({"domains": [definition, …]}, each
 * in the form `GET /sources/domains/{name}` gives), listed in the manifest's `contents` with type
 * `domains` and its checksums, but kept out of `package_type` (a reader that does not know it skips the
 * entry). A whole-graph export carries every custom domain; an export by sources the ones its sources
 * were extracted under.
 */
export const domainsPath = 'domains.json';
const domainsType = 'domains';

/** Writes `domains.json` into the package's work folder; null when there is no domain to carry. */
export async function writeDomainsPart(workDir: string, definitions: DomainDefinition[]): Promise<ContentFile | null> {
  if (!definitions.length) return null;
  const writer = new DataFileWriter(path.join(workDir, domainsPath));
  try {
    await writer.write(JSON.stringify({ domains: definitions }, null, 2));
  } catch (error) {
    await writer.discard();
    throw error;
  }
  const { size, sha256, sha512 } = await writer.close();
  return {
    type: domainsType,
    path: domainsPath,
    media_type: 'application/json',
    file_size_bytes: size,
    checksum_sha256: sha256,
    checksum_sha512: sha512,
  };
}

/**
 * The definitions of a checked `domains.json` (validated one by one when imported). The part is
 * optional: one that is not the documented shape is left out with a warning, the rest of the package
 * still imports.
 */
export function readDomainsPart(data: Buffer | undefined, warnings: string[]): unknown[] {
  if (!data) return [];
  let document: unknown;
  try {
    document = JSON.parse(data.toString('utf8'));
  } catch (error) {
    warnings.push(`Ignored '${domainsPath}': not valid JSON (${(error as Error).message})`);
    return [];
  }
  const domains = objectOrNull(document)?.domains;
  if (!Array.isArray(domains)) {
    warnings.push(`Ignored '${domainsPath}': expected an object with a list \`domains\``);
    return [];
  }
  return domains;
}
