import { runTool } from './run-tool.ts';

export interface OcrOptions {
  /** tesseract languages joined by `+`. */
  languages: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/** More text than any page holds; a larger answer means something is wrong. */
const maxOcrOutputBytes = 16 * 1024 * 1024;

/** The text tesseract reads in one image file (PNG, JPEG, GIF, WebP, BMP, TIFF, PNM), trimmed; empty when it finds none. */
export async function ocrImage(imagePath: string, options: OcrOptions): Promise<string> {
  const output = await runTool({
    tool: 'tesseract',
    debianPackage: 'tesseract-ocr',
    args: [imagePath, 'stdout', '-l', options.languages, '--psm', '3'],
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    maxOutputBytes: maxOcrOutputBytes,
  });
  return tidyOcrText(output.toString('utf8'));
}

/** tesseract ends pages with a form feed and pads lines with spaces. */
function tidyOcrText(text: string): string {
  return text
    .replace(/\f/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
