import { collectGarbage } from '../../threads/index.ts';
import { serveThread } from '../../threads/index.ts';
import { packDocument, packedBuffers } from './packed.ts';
import { prepareDocument, type PrepareInput } from './prepare.ts';

/**
 * Preparing a document leaves garbage of several times its size (copies of its text); above this size
 * it is collected at once instead of staying resident in the idle thread. Below it a collection would
 * only slow down a batch of small files.
 */
const collectAfterBytes = 4 * 1024 * 1024;

let preparedBytes = 0;

// Worker-thread entry: prepares documents, one request at a time; the chunks' texts are transferred.
serveThread(
  async (input: PrepareInput) => {
    preparedBytes = 0;
    const packed = packDocument(await prepareDocument(input));
    preparedBytes = packed.chunks.contents.byteLength;
    return packed;
  },
  {
    transfer: packedBuffers,
    afterAnswer: () => {
      if (preparedBytes > collectAfterBytes) collectGarbage();
    },
  },
);
