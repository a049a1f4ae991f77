/** Title and author from an OLE file's `\x05SummaryInformation` property set, where Office keeps them. */
import { decoderFor } from './code-pages.ts';

const PID_CODEPAGE = 1;
const PID_TITLE = 2;
const PID_AUTHOR = 4;
const VT_I2 = 2;
const VT_LPSTR = 30;
const VT_LPWSTR = 31;

/** Reads the first section's properties; a damaged set yields nulls, never an error. */
export function summaryProperties(stream: Buffer | null): { title: string | null; author: string | null } {
  const none = { title: null, author: null };
  if (!stream || stream.length < 48) return none;
  try {
    const section = stream.readUInt32LE(44);
    const count = Math.min(stream.readUInt32LE(section + 4), 1000);
    const offsets = new Map<number, number>();
    for (let i = 0; i < count; i++)
      offsets.set(stream.readUInt32LE(section + 8 + i * 8), section + stream.readUInt32LE(section + 12 + i * 8));
    const codePageAt = offsets.get(PID_CODEPAGE);
    const codePage =
      codePageAt !== undefined && stream.readUInt16LE(codePageAt) === VT_I2
        ? stream.readUInt16LE(codePageAt + 4)
        : 1252;
    const text = (pid: number): string | null => {
      const at = offsets.get(pid);
      if (at === undefined) return null;
      const type = stream.readUInt16LE(at);
      const length = stream.readUInt32LE(at + 4);
      let value: string | null = null;
      if (type === VT_LPSTR) value = decoderFor(codePage)(stream.subarray(at + 8, at + 8 + length));
      else if (type === VT_LPWSTR) value = stream.toString('utf16le', at + 8, at + 8 + length * 2);
      return value?.replace(/\0+$/, '').replace(/\s+/g, ' ').trim() || null;
    };
    return { title: text(PID_TITLE), author: text(PID_AUTHOR) };
  } catch {
    return none;
  }
}
