import { parentPort } from 'node:worker_threads';
import { UnreadableFileError } from '../loaders/port.ts';
import { prepareDocument, type PrepareInput } from './prepare.ts';

// Worker-thread entry (started through boot.mjs): prepares documents one message at a time.
parentPort!.on('message', ({ id, input }: { id: number; input: PrepareInput }) => {
  prepareDocument(input).then(
    (prepared) => parentPort!.postMessage({ id, ok: true, prepared }),
    (error: unknown) => parentPort!.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error), unreadable: error instanceof UnreadableFileError }),
  );
});
