import JSZip from 'jszip';
import { readUpTo } from '../loaders/read.ts';
import { UnreadableFileError } from '../loaders/port.ts';
import { openArchive } from '../loaders/zip-bounds.ts';
import type { UnpackLimits } from './limits.ts';
import { UnpackRefusal } from './refusal.ts';
import type { MemberSink } from './sink.ts';

const TYPE_BITS = 0o170000;
const REGULAR = 0o100000;
const DIRECTORY = 0o040000;

/** A member recorded as a symbolic link, device, FIFO or socket (its Unix mode's type bits), which no document is. */
function specialEntry(mode: number | string | null): boolean {
  if (typeof mode !== 'number') return false;
  const type = mode & TYPE_BITS;
  return type !== 0 && type !== REGULAR && type !== DIRECTORY;
}

/**
 * Hands every file of a zip archive to `sink`, named `prefix` + its path, within the loaders' zip bounds
 * (entry count, declared and inflated size, no names outside the archive) and refusing links and devices.
 */
export async function readZip(
  file: string,
  name: string,
  prefix: string,
  sink: MemberSink,
  limits: UnpackLimits,
): Promise<void> {
  const { bytes, truncated } = await readUpTo(file, limits.maxTotalBytes);
  if (truncated) throw new UnpackRefusal(`'${name}' is larger than ${limits.maxTotalBytes} bytes, the most unpacked`);
  const what = `'${name}'`;
  const archive = await openArchive(
    bytes,
    { maxEntries: limits.maxMembers, maxUnpackedBytes: limits.maxTotalBytes, maxTextChars: 0 },
    what,
  ).catch((error: unknown) => {
    throw error instanceof UnreadableFileError ? new UnpackRefusal(error.message) : error;
  });
  // The bounded archive reads contents; the entries' Unix modes (links, devices) come from jszip itself.
  const modes = await JSZip.loadAsync(bytes, { createFolders: false });
  for (const entry of archive.names)
    if (specialEntry(modes.file(entry)?.unixPermissions ?? null))
      throw new UnpackRefusal(`${what} holds '${entry}', a link or device rather than a file`);
  for (const entry of archive.names) {
    const content = await archive.readBytes(entry).catch((error: unknown) => {
      throw error instanceof UnreadableFileError ? new UnpackRefusal(error.message) : error;
    });
    if (content) await sink.add(`${prefix}${entry}`, content);
  }
}
