import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scannedPdf } from '../../packages/core/test/sources/loaders/media-fixtures.ts';
import { zipArchive } from '../../packages/core/test/sources/unpack/archives.ts';
import { captureScreen, dropFiles, eventually, testTimeout, useSignedInBrowser } from './support/browser.ts';

const password = 'correct horse battery';

/** The upload panel follows what was dropped: a scanned PDF read page by page, a zip member by member. */
describe('web interface: upload progress', { timeout: testTimeout }, () => {
  const signedIn = useSignedInBrowser('/sources', password);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rhizome-upload-progress-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shows a scanned PDF and each member of a zip until they are read', async () => {
    const { page } = signedIn;
    const birds = ['Osprey', 'Heron', 'Plover', 'Curlew', 'Dunlin', 'Avocet'];
    const pdf = await scannedPdf(
      dir,
      'ledger',
      birds.map((bird) => ({ lines: ['Estate ledger', `${bird} Farm rents`], scan: true })),
    );
    const zip = await zipArchive([
      ...['harbour', 'quarry', 'orchard', 'granary'].map((name) => ({
        name: `notes/${name}.md`,
        content: `# The ${name}\n\nField notes about the ${name} and its keepers.\n`,
      })),
      { name: 'notes/tool.exe', content: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]) },
    ]);
    await dropFiles(page, '[data-testid="dropzone"]', [
      { name: 'ledger.pdf', mimeType: 'application/pdf', buffer: readFileSync(pdf) },
      { name: 'notes.zip', mimeType: 'application/zip', buffer: zip },
    ]);
    const progress = page.getByRole('region', { name: 'Upload progress' });
    const item = (name: string) => progress.getByTestId('upload-progress-item').filter({ hasText: name });
    await eventually(() => item('ledger.pdf').innerText()).toMatch(/OCR: page [1-6] of 6/);
    await eventually(() => item('notes.zip').innerText()).toContain('4 of 4 members read');
    await eventually(() => item('ledger.pdf').innerText()).toContain('Needs your confirmation');
    await eventually(() => page.getByRole('alert').innerText()).toContain('tool.exe');
    expect(await progress.getByRole('progressbar', { name: 'notes.zip: 4 of 4 members read' }).count()).toBe(1);
    await captureScreen(page, 'upload-progress');

    await progress.getByRole('button', { name: 'Hide upload progress' }).click();
    await eventually(() => progress.count()).toBe(0);
  });
});
