import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnreadableFileError } from '../../src/sources/loaders/port.ts';
import { allLoaders, loadDocument } from '../../src/sources/loaders/registry.ts';
import { epubWith, xhtml } from './broken-files.ts';
import { FIXTURE_LIMITS } from './fixtures.ts';

/** A parse failure is the file's fault and never gets better on a retry: every loader reports it as UnreadableFileError. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rhizome-loader-failures-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(filename: string, content: string | Buffer): Promise<string> {
  const file = path.join(dir, filename);
  await writeFile(file, content);
  return file;
}

const input = (file: string, filename: string) => ({
  path: file,
  filename,
  limits: FIXTURE_LIMITS,
  signal: new AbortController().signal,
});

describe('parse failures are unreadable files', () => {
  it('refuses an EPUB whose only chapter is not an XHTML document as unreadable (not a TypeError to retry)', async () => {
    const file = await put('broken.epub', await epubWith({ 'c1.xhtml': '' }));
    const failure = await loadDocument(input(file, 'broken.epub')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnreadableFileError);
    expect((failure as Error).message).toMatch(/EPUB file has no readable chapter.*c1\.xhtml/);
  });

  it('reads the good chapters of an EPUB with one broken chapter, naming it in the warnings', async () => {
    const file = await put(
      'half.epub',
      await epubWith({ 'c1.xhtml': 'no markup at all', 'c2.xhtml': xhtml('<p>The rhzgoodchapter survives.</p>') }),
    );
    const document = await loadDocument(input(file, 'half.epub'));
    expect(document.text).toContain('rhzgoodchapter');
    expect(document.warnings).toEqual([expect.stringMatching(/c1\.xhtml is not an XHTML document/)]);
  });

  it('refuses an empty (0-byte) file of any format with the same clear message', async () => {
    for (const filename of ['empty.txt', 'empty.html', 'empty.csv', 'empty.json', 'empty.pdf', 'empty.png']) {
      const file = await put(filename, '');
      await expect(loadDocument(input(file, filename)), filename).rejects.toThrow(
        new UnreadableFileError(`${filename} is empty (0 bytes): there is nothing to index`),
      );
    }
  });

  it('reads an .html file without any markup as its text', async () => {
    const file = await put('plain.html', 'Plain words about rhzplainhtml, no tags at all.');
    expect((await loadDocument(input(file, 'plain.html'))).text).toBe(
      'Plain words about rhzplainhtml, no tags at all.',
    );
  });

  it('every loader, given content it cannot parse, loads it or refuses it as unreadable — never another error', async () => {
    const zip = new JSZip();
    zip.file('readme.txt', 'hello');
    const samples: Record<string, Buffer> = {
      whitespace: Buffer.from('   \n\t \n'),
      prose: Buffer.from('Just a sentence of prose, in no particular format.'),
      junk: Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919 + 13) % 256)),
      truncatedZip: (await zip.generateAsync({ type: 'nodebuffer' })).subarray(0, 40),
      markupFragment: Buffer.from('<p>unclosed <b>tags'),
    };
    const outcomes: string[] = [];
    for (const loader of allLoaders) {
      for (const [name, bytes] of Object.entries(samples)) {
        const filename = `${name}${loader.extensions[0]}`;
        const file = await put(filename, bytes);
        const failure = await loader.load(input(file, filename)).then(
          () => null,
          (error: unknown) => error,
        );
        if (failure !== null && !(failure instanceof UnreadableFileError))
          outcomes.push(`${loader.format}/${name}: ${String(failure)}`);
      }
    }
    expect(outcomes).toEqual([]);
  });
});
