import { collectGarbage } from '../../threads/index.ts';
import { serveThread } from '../../threads/index.ts';
import { packChunks, packedBuffers } from './packed.ts';
import { prepareInSegments, type PrepareInput, type PreparedSummary } from './prepare.ts';
import type { PreparePart } from './run-in-thread.ts';

/**
 * Preparing a document leaves garbage of several times its size (copies of its text); above this size
 * it is collected at once instead of staying resident in the idle thread. Below it a collection would
 * only slow down a batch of small files.
 */
const collectAfterBytes = 4 * 1024 * 1024;

let preparedBytes = 0;

// Worker-thread entry: prepares documents, one request at a time; each segment's chunks are sent as soon
// as they are ready, their texts transferred.
serveThread<PrepareInput, PreparedSummary, PreparePart>(
  async (input, emit) => {
    preparedBytes = 0;
    return prepareInSegments(
      input,
      (chunks) => {
        const packed = packChunks(chunks);
        preparedBytes += packed.contents.byteLength;
        emit({ chunks: packed });
      },
      (progress) => emit({ progress }),
    );
  },
  {
    transferPart: (part) => ('chunks' in part ? packedBuffers(part.chunks) : []),
    afterAnswer: () => {
      if (preparedBytes > collectAfterBytes) collectGarbage();
    },
  },
);
