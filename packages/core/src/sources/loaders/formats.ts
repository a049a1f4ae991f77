import path from 'node:path';
import { UnreadableFileError, type LoadedDocument, type Loader, type LoaderFormat, type LoaderInput } from './port.ts';
import { describeError } from '@rhizome/contracts/errors';

interface FormatInfo {
  /** Lower-case, with the dot. */
  extensions: string[];
  /** The first one is what sniffing reports; it is always in the default upload allowlist. */
  mediaTypes: string[];
}

/**
 * One table for names and media types, shared by the loaders and by sniffing. TSV and reStructuredText have
 * no media type in the default allowlist, so they report `text/csv` and `text/plain`.
 */
export const formats: Record<LoaderFormat, FormatInfo> = {
  text: { extensions: ['.txt', '.text', '.log'], mediaTypes: ['text/plain'] },
  markdown: { extensions: ['.md', '.markdown'], mediaTypes: ['text/markdown', 'text/x-markdown'] },
  pdf: { extensions: ['.pdf'], mediaTypes: ['application/pdf'] },
  docx: {
    extensions: ['.docx'],
    mediaTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  },
  html: { extensions: ['.html', '.htm', '.xhtml'], mediaTypes: ['text/html', 'application/xhtml+xml'] },
  csv: { extensions: ['.csv'], mediaTypes: ['text/csv'] },
  tsv: { extensions: ['.tsv', '.tab'], mediaTypes: ['text/csv', 'text/tab-separated-values'] },
  json: { extensions: ['.json'], mediaTypes: ['application/json'] },
  jsonl: {
    extensions: ['.jsonl', '.ndjson'],
    mediaTypes: ['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines'],
  },
  xml: { extensions: ['.xml'], mediaTypes: ['application/xml', 'text/xml'] },
  xlsx: { extensions: ['.xlsx'], mediaTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] },
  pptx: {
    extensions: ['.pptx'],
    mediaTypes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  },
  epub: { extensions: ['.epub'], mediaTypes: ['application/epub+zip'] },
  rst: { extensions: ['.rst', '.rest'], mediaTypes: ['text/plain', 'text/x-rst'] },
  image: {
    extensions: ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp', '.tif', '.tiff'],
    mediaTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff'],
  },
  audio: {
    extensions: ['.mp3', '.wav', '.flac', '.m4a', '.ogg', '.oga', '.aac', '.opus'],
    mediaTypes: [
      'audio/mpeg',
      'audio/wav',
      'audio/flac',
      'audio/mp4',
      'audio/ogg',
      'audio/aac',
      'audio/x-wav',
      'audio/opus',
    ],
  },
  video: {
    extensions: ['.mp4', '.m4v', '.mkv', '.mov', '.webm', '.avi'],
    mediaTypes: ['video/mp4', 'video/x-matroska', 'video/quicktime', 'video/webm', 'video/x-msvideo'],
  },
  odt: { extensions: ['.odt', '.ott'], mediaTypes: ['application/vnd.oasis.opendocument.text'] },
  ods: { extensions: ['.ods', '.ots'], mediaTypes: ['application/vnd.oasis.opendocument.spreadsheet'] },
  odp: { extensions: ['.odp', '.otp'], mediaTypes: ['application/vnd.oasis.opendocument.presentation'] },
  rtf: { extensions: ['.rtf'], mediaTypes: ['application/rtf', 'text/rtf'] },
  xlsm: { extensions: ['.xlsm'], mediaTypes: ['application/vnd.ms-excel.sheet.macroEnabled.12'] },
  doc: { extensions: ['.doc', '.dot'], mediaTypes: ['application/msword'] },
};

export function extensionOf(filename: string): string {
  return path.extname(filename).toLowerCase();
}

export function formatForExtension(filename: string): LoaderFormat | null {
  const ext = extensionOf(filename);
  if (!ext) return null;
  for (const [format, info] of Object.entries(formats) as [LoaderFormat, FormatInfo][]) {
    if (info.extensions.includes(ext)) return format;
  }
  return null;
}

export function canonicalMediaType(format: LoaderFormat): string {
  return formats[format].mediaTypes[0];
}

/**
 * A loader whose unexpected failures (a parser's TypeError on odd content, say) are reported as an
 * unreadable file: the same bytes fail the same way on every retry. A cancellation and a system error
 * (a file system code such as EMFILE) pass through as they are.
 */
export function defineLoader(format: LoaderFormat, load: (input: LoaderInput) => Promise<LoadedDocument>): Loader {
  const guarded = async (input: LoaderInput): Promise<LoadedDocument> => {
    try {
      return await load(input);
    } catch (error) {
      if (
        error instanceof UnreadableFileError ||
        input.signal.aborted ||
        typeof (error as NodeJS.ErrnoException | null)?.code === 'string'
      )
        throw error;
      throw new UnreadableFileError(
        `${input.filename} could not be read as ${format.toUpperCase()} (${describeError(error)})`,
      );
    }
  };
  return {
    format,
    extensions: [...formats[format].extensions],
    mediaTypes: [...formats[format].mediaTypes],
    load: guarded,
  };
}
