import { invalidPackage } from './errors.ts';
import { manifestPath } from './format-v2.ts';
import type { CcxContent } from './model.ts';
import { parseJson, readCcx2 } from './reader-v2.ts';
import { readCcx3 } from './reader-v3.ts';
import { ZipArchive } from './zip-reader.ts';

/**
 * Opens a `.ccx` package and reads everything in it, refusing it (400, precise message) on the first
 * problem: zip safety, the manifest, a checksum, a file's shape. The version decides the rules: a
 * `mimetype` entry or `ccx_version` 3.x is a CCX 3.0 container, 2.x the 2.0 layout; other majors
 * are refused (a higher minor of a known major is accepted, as both versions promise).
 */
export function readCcxPackage(bytes: Buffer): CcxContent {
  const archive = ZipArchive.open(bytes);
  const manifestEntry = archive.get(manifestPath);
  const hasMimetype = Boolean(archive.get('mimetype'));
  if (!manifestEntry) throw invalidPackage('manifest.json is missing');
  const manifest = parseJson(archive.text(manifestEntry), manifestPath);
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest))
    throw invalidPackage('manifest.json must be a JSON object');
  const version = (manifest as Record<string, unknown>).ccx_version;
  if (typeof version !== 'string' || !/^\d+\.\d+$/.test(version))
    throw invalidPackage('manifest.json: `ccx_version` must be a MAJOR.MINOR version string');
  const major = Number(version.split('.')[0]);
  if (hasMimetype || major === 3) {
    if (major !== 3) throw invalidPackage(`a CCX 3.0 container declares ccx_version ${version}`);
    return readCcx3(archive, manifest as Record<string, unknown>);
  }
  if (major === 2) return readCcx2(archive, manifest as Record<string, unknown>);
  throw invalidPackage(`CCX version ${version} is not supported (2.x and 3.x are)`);
}
