import fs from 'node:fs';
import { Parser, type ReadEntry } from 'tar';
import { isUnsafeEntryName } from '../loaders/zip-bounds.ts';
import type { UnpackBudget } from './limits.ts';
import { UnpackRefusal } from './refusal.ts';
import type { MemberSink } from './sink.ts';

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const SKIPPED_TYPES = new Set(['Directory', 'GNUDumpDir']);

/**
 * Hands every file of a tar archive (gzipped or not) to `sink`, named `prefix` + its path, in archive order.
 * A name outside the archive, a link, a device or a damaged header refuses the whole archive.
 */
export async function readTar(
  file: string,
  name: string,
  prefix: string,
  sink: MemberSink,
  budget: UnpackBudget,
): Promise<void> {
  let handled: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  const parser = new Parser({
    strict: true,
    noResume: true,
    onReadEntry: (entry: ReadEntry) => {
      const refusal = entryRefusal(entry, name, budget);
      if (refusal) {
        failure ??= refusal;
        parser.abort(refusal);
        return;
      }
      if (!FILE_TYPES.has(entry.type)) {
        entry.resume();
        return;
      }
      handled = handled.then(() =>
        failure ? void entry.resume() : sink.add(`${prefix}${entry.path}`, entry as never),
      );
      handled.catch((error: unknown) => {
        failure ??= error;
        parser.abort(error as Error);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    const input = fs.createReadStream(file);
    const fail = (error: unknown) => {
      input.destroy();
      reject(failure ?? error);
    };
    parser.on('error', fail);
    parser.on('abort', fail);
    input.on('error', fail);
    parser.on('end', () => resolve());
    input.pipe(parser);
  }).catch(async (error: unknown) => {
    // A member still being written when the archive is refused must be done before its caller cleans up.
    await handled.catch(() => undefined);
    if (error instanceof UnpackRefusal || failure) throw failure ?? error;
    throw new UnpackRefusal(`'${name}' is not a readable tar archive (${(error as Error).message})`);
  });
  await handled;
  if (failure) throw failure;
}

function entryRefusal(entry: ReadEntry, name: string, budget: UnpackBudget): UnpackRefusal | null {
  if (isUnsafeEntryName(entry.path))
    return new UnpackRefusal(`'${name}' holds '${entry.path}', a path outside the archive`);
  if (SKIPPED_TYPES.has(entry.type)) return null;
  if (!FILE_TYPES.has(entry.type))
    return new UnpackRefusal(`'${name}' holds '${entry.path}', a ${entry.type} rather than a file`);
  try {
    budget.declare(entry.path, entry.size ?? 0);
  } catch (error) {
    return error as UnpackRefusal;
  }
  return null;
}
