import { BadInput } from '@rhizome/contracts/errors';
import { ThreadClient } from '../threads/index.ts';
import type { CcxContent } from './model.ts';
import type { ValidatedCcx } from './package-summary.ts';

/** What the package thread is asked: a stored package or uploaded bytes, read whole or only summarised. */
export type PackageRead = ({ file: string } | { bytes: Uint8Array }) & { summaryOnly: boolean };

const thread = new ThreadClient<PackageRead, unknown>(new URL('./read-thread.ts', import.meta.url), (failure) =>
  failure.name === BadInput.name ? BadInput.field(failure.message, 'file') : new Error(failure.message),
);

/**
 * Reading a large package takes the better part of a second of CPU (inflating, checksums, JSON); on a
 * thread of its own it never stalls the requests the process answers meanwhile. A refused package
 * rejects with the same 400 as reading it here would.
 */
export async function readCcxInThread(file: string): Promise<CcxContent> {
  return (await thread.run({ file, summaryOnly: false })) as CcxContent;
}

/** Reads the whole package and says what it holds; the import task reads it again from the stored copy. */
export async function validateCcxPackage(bytes: Uint8Array): Promise<ValidatedCcx> {
  return (await thread.run({ bytes, summaryOnly: true })) as ValidatedCcx;
}
