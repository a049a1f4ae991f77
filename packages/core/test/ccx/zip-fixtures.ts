import { deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';
import { crc32 } from '../../src/ccx/zip-reader.ts';

/** Hand-built ZIP archives for hostile-package tests: every header field is the test's to choose. */
export interface RawEntry {
  name: string;
  data: Buffer;
  /** 0 stored, 8 deflated (default). */
  method?: 0 | 8;
  /** What the central directory claims as the uncompressed size (written as ZIP64 above 4 GiB). */
  declaredSize?: number;
  /** Unix mode bits in the external attributes (made by Unix when set). */
  unixMode?: number;
}

export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const method = entry.method ?? 8;
    const body = method === 8 ? deflateRawSync(entry.data) : entry.data;
    const name = Buffer.from(entry.name, 'utf8');
    const declared = entry.declaredSize ?? entry.data.length;
    const zip64 = declared > 0xfffffffe;
    const extra = zip64 ? Buffer.alloc(12) : Buffer.alloc(0);
    if (zip64) {
      extra.writeUInt16LE(1, 0);
      extra.writeUInt16LE(8, 2);
      extra.writeBigUInt64LE(BigInt(declared), 4);
    }
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(zip64 ? 0xffffffff : declared, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.unixMode === undefined ? 20 : (3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(zip64 ? 0xffffffff : declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(entry.unixMode === undefined ? 0 : (entry.unixMode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name, extra);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Every entry of a package, for tests that tamper with one and zip it again. */
export async function entriesOf(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(bytes);
  const entries = new Map<string, Buffer>();
  for (const file of Object.values(zip.files)) if (!file.dir) entries.set(file.name, await file.async('nodebuffer'));
  return entries;
}

export function zipEntries(entries: Map<string, Buffer>): Buffer {
  return rawZip([...entries].map(([name, data]) => ({ name, data })));
}
