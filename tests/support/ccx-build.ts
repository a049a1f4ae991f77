import { createHash } from 'node:crypto';
import { rawZip } from '../../packages/core/test/ccx/zip-fixtures.ts';

/** A CCX 2.0 package of the given data files, each checksummed in its manifest as the writer does. */
export function ccx2Package(files: Record<string, string>, name = 'test/package'): Buffer {
  const digest = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('base64');
  const contents = Object.entries(files).map(([path, text]) => ({
    type: path.split('.')[0],
    path,
    media_type: path.endsWith('.jsonl') ? 'application/jsonlines' : 'application/ld+json',
    file_size_bytes: Buffer.byteLength(text),
    checksum_sha256: digest('sha256', text),
    checksum_sha512: digest('sha512', text),
  }));
  const manifest = { ccx_version: '2.0', name, package_version: '1.0.0', contents };
  return rawZip([
    ...Object.entries(files).map(([path, text]) => ({ name: path, data: Buffer.from(text) })),
    { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest)) },
  ]);
}
