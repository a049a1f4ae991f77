import fs from 'node:fs';
import { collectGarbage, serveThread } from '../threads/index.ts';
import { summariseCcx } from './package-summary.ts';
import { readCcxPackage } from './read-package.ts';
import type { PackageRead } from './read-in-thread.ts';

// Worker-thread entry: reads and checks a package (inflating, checksums, JSON) away from the event loop.
serveThread<PackageRead, unknown>(
  async (request) => {
    const bytes = 'file' in request ? await fs.promises.readFile(request.file) : Buffer.from(request.bytes);
    const content = readCcxPackage(bytes);
    return request.summaryOnly ? summariseCcx(content) : content;
  },
  // A package's parsed copy is several times its size; the idle thread would keep it resident.
  { afterAnswer: collectGarbage },
);
