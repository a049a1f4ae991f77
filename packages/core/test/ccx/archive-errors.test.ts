import { describe, expect, it } from 'vitest';
import { ZipArchive } from '../../src/ccx/zip-reader.ts';
import type { LoaderLimits } from '../../src/sources/loaders/port.ts';
import { openArchive } from '../../src/sources/loaders/zip-bounds.ts';
import { rawZip } from './zip-fixtures.ts';

const name = 'word/document.xml';
const data = Buffer.from(`<w:document>${'Some words of a document. '.repeat(100)}</w:document>`);
const limits = { maxEntries: 100, maxUnpackedBytes: 10_000_000 } as LoaderLimits;
/** Where the entry's compressed bytes start in a one-entry archive from rawZip. */
const dataStart = 30 + Buffer.byteLength(name);

/** The archive with its one entry's compressed stream damaged. */
function damagedStream(): Buffer {
  const bytes = rawZip([{ name, data }]);
  bytes[dataStart] = 0xff;
  return bytes;
}

async function loaderError(bytes: Buffer): Promise<string> {
  try {
    await (await openArchive(bytes, limits, 'the DOCX file')).inflateAll();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the archive was accepted');
}

function packageError(bytes: Buffer): string {
  try {
    const archive = ZipArchive.open(bytes);
    archive.read(archive.entries[0]);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the archive was accepted');
}

describe('archive errors say what is wrong with the file, not what the library says', () => {
  it('a document entry whose size does not match its header', async () => {
    const message = await loaderError(rawZip([{ name, data, declaredSize: data.length + 5 }]));
    expect(message).toBe(
      `the DOCX file is damaged: its entry ${name} does not unpack to the size and checksum the archive records`,
    );
  });

  it('a document entry whose compressed data is damaged', async () => {
    expect(await loaderError(damagedStream())).toBe(
      `the DOCX file is damaged: its entry ${name} does not unpack to the size and checksum the archive records`,
    );
  });

  it('a package entry whose compressed data is damaged', () => {
    expect(packageError(damagedStream())).toBe(
      `Invalid CCX package: Entry '${name}' is corrupt: its compressed data cannot be unpacked`,
    );
  });
});
