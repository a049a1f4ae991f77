import knex from 'knex';
import { describe, expect, it } from 'vitest';
import { NotFound } from '@rhizome/contracts/errors';
import { toApiError } from '../src/http/errors.ts';

describe('the mapping of failures to HTTP errors', () => {
  it('answers a connection pool exhausted under load with 503, not 500', async () => {
    // A real acquire timeout: one connection held by a transaction, a second query waiting 50 ms for it.
    const db = knex({
      client: 'sqlite3',
      connection: { filename: ':memory:' },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
      acquireConnectionTimeout: 50,
    });
    try {
      const timeout = await db.transaction(async () => db.raw('SELECT 1').catch((error: unknown) => error));
      expect((timeout as Error).name).toBe('KnexTimeoutError');
      expect(toApiError(timeout).toBody()).toMatchObject({
        error: 'HTTP_503',
        message: 'The database is busy: try again in a moment',
      });
      expect(toApiError(timeout).status).toBe(503);
    } finally {
      await db.destroy();
    }
  });

  it('maps a domain failure by its kind, keeping its code and details', () => {
    const mapped = toApiError(NotFound.resource('Source', 'src_1'));
    expect(mapped.status).toBe(404);
    expect(mapped.toBody()).toEqual({
      error: 'NOT_FOUND',
      message: "Source 'src_1' not found",
      details: { resource_type: 'Source', identifier: 'src_1' },
    });
  });

  it('leaves anything unexpected a 500 without its message', () => {
    expect(toApiError(new Error('secret internals')).toBody()).toEqual({
      error: 'INTERNAL_ERROR',
      message: 'An unexpected error occurred',
      details: null,
    });
  });
});
