/**
 * Legacy Office files are OLE compound files (magic D0 CF 11 E0 A1 B1 1A E1). Which application wrote one is
 * told by the streams its directory names (`WordDocument`, `Workbook`, `PowerPoint Document`); the
 * directory may lie past the first bytes, so the extension decides then.
 */
import { extensionOf } from './formats.ts';

export type OleKind = 'doc' | 'xls' | 'ppt' | 'unknown';

const HEADER_BYTES = 512;
const ENTRY_BYTES = 128;
const STREAM_KINDS: [string, OleKind][] = [
  ['WordDocument', 'doc'],
  ['Workbook', 'xls'],
  ['Book', 'xls'],
  ['PowerPoint Document', 'ppt'],
];
const EXTENSION_KINDS: Record<string, OleKind> = {
  '.doc': 'doc',
  '.dot': 'doc',
  '.xls': 'xls',
  '.xlt': 'xls',
  '.ppt': 'ppt',
  '.pps': 'ppt',
  '.pot': 'ppt',
};

export function isOleFile(head: Buffer): boolean {
  return head.length >= 8 && head.readUInt32BE(0) === 0xd0cf11e0 && head.readUInt32BE(4) === 0xa1b11ae1;
}

/** The name of a directory entry: UTF-16LE, its byte length (with the terminating NUL) at offset 64. */
function entryName(head: Buffer, at: number): string {
  const bytes = head.readUInt16LE(at + 64);
  if (bytes < 2 || bytes > 64 || bytes % 2 !== 0) return '';
  return head.toString('utf16le', at, at + bytes - 2);
}

/** What an OLE file is, from the directory entries within `head`, else its extension; null when no OLE file. */
export function oleKind(head: Buffer, filename: string): OleKind | null {
  if (!isOleFile(head)) return null;
  // Directory entries start on 128-byte boundaries after the header, whatever the sector size.
  for (let at = HEADER_BYTES; at + ENTRY_BYTES <= head.length; at += ENTRY_BYTES) {
    const name = entryName(head, at);
    const kind = name && STREAM_KINDS.find(([stream]) => stream === name)?.[1];
    if (kind) return kind;
  }
  return EXTENSION_KINDS[extensionOf(filename)] ?? 'unknown';
}

/** How an OLE file Rhizome does not read is named in a refusal, with what to do instead. */
export const oleRefusals: Record<Exclude<OleKind, 'doc'>, string> = {
  xls: 'a legacy Excel 97–2003 workbook (.xls), which Rhizome cannot read: save it as .xlsx (or CSV or PDF) and upload that',
  ppt: 'a legacy PowerPoint 97–2003 presentation (.ppt), which Rhizome cannot read: save it as .pptx (or PDF) and upload that',
  unknown:
    'an OLE compound file that is no Word document (a legacy Office or Outlook file), which Rhizome cannot read: save it as .docx, .xlsx, .pptx or PDF and upload that',
};
