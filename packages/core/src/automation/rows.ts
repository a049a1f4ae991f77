import { randomBytes } from 'node:crypto';

/** JSON columns: stored as text, null stays SQL NULL. */
export function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function fromJson<T>(text: string | null | undefined, fallback: T): T {
  return text === null || text === undefined ? fallback : (JSON.parse(text) as T);
}

/** A boolean column: written as a boolean, handed back by SQLite as 0/1. */
export type Flag = number | boolean;

export const bool = (value: Flag | null | undefined): boolean => Boolean(value);

export function newId(prefix: 'wf' | 'exec' | 'trg' | 'tool'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export const now = (): string => new Date().toISOString();
