import { expect } from 'vitest';
import type { ValidationIssue } from '@rhizome/contracts/errors';
import type { CallResult } from './server.ts';

/** A page of the list envelope (docs/api-conventions.md#pagination). */
export interface PageOf<T> {
  data: T[];
  pagination: {
    total: number;
    page: number;
    page_size: number;
    total_pages: number;
    has_next: boolean;
    has_prev: boolean;
  };
}

export type Issue = ValidationIssue;

/** Timestamps as the API writes them: ISO 8601 UTC with milliseconds and Z. */
export const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Asserts a 422 VALIDATION_FAILED answer and returns its issues. */
export function validationIssuesOf(result: CallResult): Issue[] {
  expect(result.status, result.text).toBe(422);
  expect((result.body as { error: string }).error).toBe('VALIDATION_FAILED');
  return (result.body as { details: { errors: Issue[] } }).details.errors;
}
