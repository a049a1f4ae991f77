/** Archives written byte by byte in tests, hostile ones included (a tar writer would refuse `../x` or a device). */
import zlib from 'node:zlib';
import JSZip from 'jszip';

export interface TarEntry {
  name: string;
  content?: string | Buffer;
  /** ustar type flag: '0' file, '2' symbolic link, '3' character device, '5' directory. */
  type?: '0' | '1' | '2' | '3' | '5';
  linkname?: string;
}

function field(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value.slice(0, length), offset, length, 'utf8');
}

const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0');

export function tarArchive(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const content = Buffer.from(entry.content ?? '');
    const header = Buffer.alloc(512);
    field(header, 0, 100, entry.name);
    field(header, 100, 8, octal(0o644, 8));
    field(header, 108, 8, octal(0, 8));
    field(header, 116, 8, octal(0, 8));
    field(header, 124, 12, octal(content.length, 12));
    field(header, 136, 12, octal(1_700_000_000, 12));
    header.fill(' ', 148, 156);
    field(header, 156, 1, entry.type ?? '0');
    field(header, 157, 100, entry.linkname ?? '');
    field(header, 257, 6, 'ustar\0');
    field(header, 263, 2, '00');
    let sum = 0;
    for (const byte of header) sum += byte;
    field(header, 148, 8, `${octal(sum, 7)}\0`);
    blocks.push(header, content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export const gzipped = (bytes: Buffer) => zlib.gzipSync(bytes);

export interface ZipEntry {
  name: string;
  content: string | Buffer;
  /** Unix mode with its type bits (0o120777 for a symbolic link). */
  mode?: number;
}

export async function zipArchive(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new JSZip();
  for (const entry of entries)
    zip.file(entry.name, entry.content, entry.mode === undefined ? {} : { unixPermissions: entry.mode });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', platform: 'UNIX' });
}

/** A zip whose entry name is written as given: jszip itself would keep `../x` but drop a leading `/`. */
export async function zipWithRawName(name: string, content: string): Promise<Buffer> {
  const placeholder = 'p'.repeat(name.length);
  const bytes = await zipArchive([{ name: placeholder, content }]);
  return Buffer.from(bytes.toString('latin1').split(placeholder).join(name), 'latin1');
}
