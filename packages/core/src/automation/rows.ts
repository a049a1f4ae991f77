import { randomBytes } from 'node:crypto';

/** JSON columns: stored as text, null stays SQL NULL. */
export function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function fromJson<T>(text: string | null | undefined, fallback: T): T {
  return text === null || text === undefined ? fallback : (JSON.parse(text) as T);
}

/** SQLite hands booleans back as 0/1. */
export const bool = (value: number | boolean | null | undefined): boolean => Boolean(value);

export function newId(prefix: 'wf' | 'exec' | 'trg' | 'tool'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export const now = (): string => new Date().toISOString();
