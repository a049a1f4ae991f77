/**
 * Scanned pages, photos and recordings made in the tests with the Debian tools the loaders use: a text
 * PDF rendered by pdftoppm and rebuilt from its page images, noise added by ffmpeg, speech spoken by
 * espeak-ng and encoded by ffmpeg, a video from an image and that speech.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const run = promisify(execFile);

/** A PDF whose pages hold these lines as real text, large enough for OCR once rendered. */
export async function textPdf(file: string, pages: readonly string[][]): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, index) => page.drawText(line, { x: 60, y: 700 - index * 40, size: 24, font }));
  }
  await writeFile(file, await doc.save());
  return file;
}

/** Page `page` of a PDF as a grey PNG at `dpi`. */
export async function renderPage(pdf: string, page: number, dpi: number, out: string): Promise<string> {
  const root = out.replace(/\.png$/, '');
  await run('pdftoppm', [
    '-f',
    String(page),
    '-l',
    String(page),
    '-r',
    String(dpi),
    '-gray',
    '-png',
    '-singlefile',
    pdf,
    root,
  ]);
  return `${root}.png`;
}

/**
 * A PDF of `pages`, each either text (kept as a text layer) or `scan` (the text rendered to an image and
 * embedded, with no text layer at all), in order.
 */
export async function scannedPdf(
  dir: string,
  name: string,
  pages: readonly { lines: string[]; scan: boolean }[],
): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [index, page] of pages.entries()) {
    const target = doc.addPage([612, 792]);
    if (!page.scan) {
      page.lines.forEach((line, row) => target.drawText(line, { x: 60, y: 700 - row * 40, size: 24, font }));
      continue;
    }
    const source = await textPdf(path.join(dir, `${name}-${index}-src.pdf`), [page.lines]);
    const image = await doc.embedPng(
      await readFile(await renderPage(source, 1, 150, path.join(dir, `${name}-${index}.png`))),
    );
    target.drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  }
  const file = path.join(dir, `${name}.pdf`);
  await writeFile(file, await doc.save());
  return file;
}

/** A photo-like image of text: rendered, blurred slightly and sprinkled with noise, in the format of `out`'s extension. */
export async function noisyTextImage(dir: string, lines: string[], out: string): Promise<string> {
  const clean = await renderPage(
    await textPdf(path.join(dir, 'photo-src.pdf'), [lines]),
    1,
    200,
    path.join(dir, 'photo-clean.png'),
  );
  await run('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-i',
    clean,
    '-vf',
    'gblur=sigma=0.6,noise=alls=25:allf=u',
    '-frames:v',
    '1',
    out,
  ]);
  return out;
}

/** `text` spoken by espeak-ng (US English, slowly), as WAV. */
export async function spokenWav(text: string, out: string): Promise<string> {
  await run('espeak-ng', ['-v', 'en-us', '-s', '130', '-w', out, text]);
  return out;
}

/** Re-encodes audio with ffmpeg into the format of `out`'s extension (mp3, flac, ogg …). */
export async function encodeAudio(input: string, out: string): Promise<string> {
  await run('ffmpeg', ['-loglevel', 'error', '-y', '-i', input, out]);
  return out;
}

/** `seconds` of a quiet tone as WAV (for long recordings where the words do not matter). */
export async function toneWav(seconds: number, out: string): Promise<string> {
  await run('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-ar',
    '16000',
    '-ac',
    '1',
    out,
  ]);
  return out;
}

/** A video (H.264 in MP4, or VP8 in WebM for `.webm`) of a still image with `audio` as its sound track. */
export async function stillVideo(image: string, audio: string, out: string): Promise<string> {
  const video = out.endsWith('.webm')
    ? ['-c:v', 'libvpx', '-c:a', 'libvorbis']
    : ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac'];
  await run('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-loop',
    '1',
    '-framerate',
    '2',
    '-i',
    image,
    '-i',
    audio,
    '-shortest',
    '-vf',
    'scale=320:-2',
    ...video,
    out,
  ]);
  return out;
}
