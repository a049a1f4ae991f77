/**
 * Text encoding detection: a BOM, then UTF-16 without a BOM (many NULs on one side; valid UTF-8 too, so
 * it goes first), then strict UTF-8, then Windows-1252 unless the bytes use one of its five undefined
 * positions, in which case ISO-8859-1.
 */
import { decodeWindows1252 } from '../text/windows-1252.ts';

/** Bytes 0x80–0x9F that Windows-1252 leaves undefined; in ISO-8859-1 they are C1 controls. */
const CP1252_UNDEFINED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);
function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

function bomlessUtf16(bytes: Uint8Array): string | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return null;
}

/**
 * The bytes as strict UTF-8, or null when they are not UTF-8. `partial`: the bytes are a prefix of the
 * file, so a multi-byte character may be cut at the end (and is dropped).
 */
function strictUtf8(bytes: Uint8Array, partial: boolean): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: partial });
  } catch {
    return null;
  }
}

/** A charset label the TextDecoder knows, normalised, or null. */
function supportedLabel(label: string | null | undefined): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim().toLowerCase()).encoding;
  } catch {
    return null;
  }
}

/** The charset a document declares in its first bytes: `<?xml … encoding="…"?>` or an HTML `<meta … charset=…>`. */
export function declaredCharset(head: Uint8Array): string | null {
  const ascii = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 2048)).toString('latin1');
  const match =
    /^\s*<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)["']/i.exec(ascii) ??
    /<meta[^>]+?charset\s*=\s*["']?([\w.:-]+)/i.exec(ascii);
  return match ? match[1] : null;
}

/**
 * Decodes text, dropping a BOM; with `partial` (the bytes are a prefix of the file), an incomplete
 * character at the end is dropped too. `declared`: the document's own charset label, used only when the
 * bytes are not UTF-8 or UTF-16. UTF-8 is validated by decoding it once: a large file is not decoded twice.
 */
export function decodeText(
  bytes: Uint8Array,
  options: { partial?: boolean; declared?: string | null } = {},
): { text: string; encoding: string } {
  const partial = options.partial ?? false;
  const unicode = bomEncoding(bytes) ?? bomlessUtf16(bytes);
  if (unicode) return { text: new TextDecoder(unicode).decode(bytes, { stream: partial }), encoding: unicode };
  const utf8 = strictUtf8(bytes, partial);
  if (utf8 !== null) return { text: utf8, encoding: 'utf-8' };
  const declared = supportedLabel(options.declared);
  if (declared && declared !== 'utf-8' && !declared.startsWith('utf-16'))
    return { text: new TextDecoder(declared).decode(bytes, { stream: partial }), encoding: declared };
  for (const byte of bytes)
    if (CP1252_UNDEFINED.has(byte))
      return {
        text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'),
        encoding: 'iso-8859-1',
      };
  return { text: decodeWindows1252(bytes), encoding: 'windows-1252' };
}

/**
 * Whether a file head is text: a BOM or UTF-16 pattern, else no NUL bytes, almost no control characters,
 * and either valid UTF-8 or a modest share of high bytes (a single-byte Western encoding).
 */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return true;
  if (bomEncoding(head) || bomlessUtf16(head)) return true;
  let controls = 0;
  let high = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if (
      (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) ||
      byte === 0x7f
    )
      controls++;
    else if (byte >= 0x80) high++;
  }
  if (controls > head.length * 0.01) return false;
  return strictUtf8(head, true) !== null || high <= head.length * 0.3;
}
