/**
 * Turns fetched bytes into text. The encoding comes from, in order: a byte-order mark (as browsers do: a
 * BOM is unambiguous and beats a stale header), the HTTP charset, the document's own declaration
 * (`<meta charset>` / `<meta http-equiv>` for HTML, `<?xml encoding?>` for XML), then UTF-8.
 * Labels are resolved by `TextDecoder`, so the WHATWG aliases apply (`latin1` means windows-1252).
 */
import { decodeWindows1252 } from '../text/windows-1252.ts';

export interface ContentType {
  /** Lower-case `type/subtype` without parameters; null when the header is missing or malformed. */
  mediaType: string | null;
  charset: string | null;
}

/** How far into an HTML or XML document the declaration is looked for. */
const PRESCAN_BYTES = 4096;

export function parseContentType(header: string | null | undefined): ContentType {
  if (!header) return { mediaType: null, charset: null };
  const [essence, ...params] = header.split(';');
  const mediaType = essence.trim().toLowerCase();
  let charset: string | null = null;
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(param);
    if (match && match[1] !== '') charset = match[1].toLowerCase();
  }
  return { mediaType: /^[\w.+-]+\/[\w.+-]+$/.test(mediaType) ? mediaType : null, charset };
}

export function decodeText(body: Buffer, charset: string | null, mediaType: string): string {
  const encoding = bomEncoding(body) ?? supported(charset) ?? declaredEncoding(body, mediaType) ?? 'utf-8';
  if (encoding === 'windows-1252') return decodeWindows1252(body);
  // The decoder strips a BOM that matches its encoding; replacement characters stand in for bad bytes.
  return new TextDecoder(encoding).decode(body);
}

function bomEncoding(body: Buffer): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return null;
}

/** The canonical name of a label TextDecoder knows, else null (unknown labels are ignored, not fatal). */
function supported(label: string | null): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

function declaredEncoding(body: Buffer, mediaType: string): string | null {
  // ASCII-compatible view of the head: every encoding a document can declare itself in keeps ASCII as is.
  const head = body.subarray(0, PRESCAN_BYTES).toString('latin1');
  const isHtml = mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
  const isXml = mediaType === 'application/xhtml+xml' || mediaType.endsWith('/xml') || mediaType.endsWith('+xml');
  const declared = (isHtml ? metaCharset(head) : null) ?? (isXml ? xmlEncoding(head) : null);
  const encoding = supported(declared);
  // A document that could be read as ASCII cannot really be UTF-16; browsers read such a declaration as UTF-8.
  return encoding?.startsWith('utf-16') ? 'utf-8' : encoding;
}

function metaCharset(head: string): string | null {
  for (const [tag] of head.matchAll(/<meta\b[^>]*>/gi)) {
    const direct = attribute(tag, 'charset');
    if (direct) return direct;
    if (attribute(tag, 'http-equiv')?.toLowerCase() === 'content-type') {
      const fromContent = parseContentType(attribute(tag, 'content')).charset;
      if (fromContent) return fromContent;
    }
  }
  return null;
}

function xmlEncoding(head: string): string | null {
  return /^<\?xml\b[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1] ?? null;
}

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>/]+))`, 'i').exec(tag);
  if (!match) return null;
  return (match[1] ?? match[2] ?? match[3]).trim();
}
