/** Windows code pages (RTF `\ansicpg` and `\cpg`, OLE property sets) and RTF font charsets, and their decoders. */
import { decodeWindows1252 } from '../text/windows-1252.ts';

/** `\fcharsetN` → the Windows code page it stands for (0 ANSI and 1 default follow the document's). */
const CHARSET_CODE_PAGES: Record<number, number> = {
  77: 10000,
  128: 932,
  129: 949,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
};

const LABELS: Record<number, string> = {
  874: 'windows-874',
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  10000: 'macintosh',
  1200: 'utf-16le',
  65001: 'utf-8',
};

export const DEFAULT_CODE_PAGE = 1252;

export function charsetCodePage(charset: number): number | null {
  return CHARSET_CODE_PAGES[charset] ?? null;
}

type Decode = (bytes: Uint8Array) => string;
const decoders = new Map<number, Decode>();

/**
 * A decoder for the code page; Windows-1252 for one this runtime does not know (such as DOS 437). Node's
 * TextDecoder reads windows-1252 as ISO-8859-1, so that one is decoded by hand.
 */
export function decoderFor(codePage: number): Decode {
  let decode = decoders.get(codePage);
  if (!decode) {
    const label = LABELS[codePage] ?? (codePage >= 1250 && codePage <= 1258 ? `windows-${codePage}` : null);
    let decoder: TextDecoder | null = null;
    try {
      decoder = label && label !== 'windows-1252' ? new TextDecoder(label) : null;
    } catch {
      decoder = null;
    }
    decode = decoder ? (bytes) => decoder.decode(bytes) : decodeWindows1252;
    decoders.set(codePage, decode);
  }
  return decode;
}
