import path from 'node:path';
import type { VectorKind } from './files.ts';
import type { VectorStore } from './store.ts';

/**
 * The writer stores open in this process, by database directory and kind. Only the process that
 * writes a database's vectors (the worker; the embedded default's single process) ever opens one, so a
 * reader that finds one here searches it instead of loading a second copy of the same index: it is
 * also fresher than any checkpoint.
 */
const stores = new Map<string, VectorStore>();

const keyOf = (databaseDir: string, kind: VectorKind) => `${path.resolve(databaseDir)}\0${kind}`;

export function registerLocalStore(databaseDir: string, kind: VectorKind, store: VectorStore): void {
  stores.set(keyOf(databaseDir, kind), store);
}

export function unregisterLocalStore(databaseDir: string, kind: VectorKind, store: VectorStore): void {
  const key = keyOf(databaseDir, kind);
  if (stores.get(key) === store) stores.delete(key);
}

export function localStore(databaseDir: string, kind: VectorKind): VectorStore | undefined {
  return stores.get(keyOf(databaseDir, kind));
}
