import path from 'node:path';
import { runTool } from './run-tool.ts';

export interface RasterOptions {
  /** Resolution, from `boundedDpi`. */
  dpi: number;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * The resolution, at most `dpi`, that keeps a page of `widthPt` × `heightPt` points within `maxPixels`
 * (a poster-sized page is read coarsely rather than rendered into gigabytes).
 */
export function boundedDpi(widthPt: number, heightPt: number, dpi: number, maxPixels: number): number {
  const pixelsAt = (resolution: number) => ((widthPt * resolution) / 72) * ((heightPt * resolution) / 72);
  if (pixelsAt(dpi) <= maxPixels) return dpi;
  return Math.max(1, Math.floor(dpi * Math.sqrt(maxPixels / pixelsAt(dpi))));
}

/** Renders one PDF page (1-based) to a grey PNG in `directory` with pdftoppm; gives the file's path. */
export async function rasterisePage(
  pdfPath: string,
  page: number,
  directory: string,
  options: RasterOptions,
): Promise<string> {
  const root = path.join(directory, `page-${page}`);
  await runTool({
    tool: 'pdftoppm',
    debianPackage: 'poppler-utils',
    args: [
      '-f',
      String(page),
      '-l',
      String(page),
      '-r',
      String(options.dpi),
      '-gray',
      '-png',
      '-singlefile',
      pdfPath,
      root,
    ],
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    maxOutputBytes: 0,
  });
  return `${root}.png`;
}
