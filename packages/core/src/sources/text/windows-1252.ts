/** Windows-1252 for bytes 0x80–0x9F (the five bytes it leaves undefined kept as their C1 control); the rest equals ISO-8859-1. */
export const windows1252High =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Node 20's TextDecoder reads every windows-1252 label (latin1, iso-8859-1, ascii …) as ISO-8859-1, turning
 * curly quotes, dashes and € into C1 control characters; this decodes the real code page instead.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (char) => windows1252High[char.charCodeAt(0) - 0x80]);
}
