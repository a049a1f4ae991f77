import { describe, expect, it } from 'vitest';
import { ajvFor } from '../src/ajv.ts';

const schema = {
  type: 'object',
  additionalProperties: false,
  properties: { count: { type: 'integer', default: 1 }, at: { type: 'string', format: 'date-time' } },
};

describe('ajvFor: one shared validator per purpose', () => {
  it('hands out the same instance for a purpose and a different one per purpose', () => {
    expect(ajvFor('batchItem')).toBe(ajvFor('batchItem'));
    expect(ajvFor('batchItem')).not.toBe(ajvFor('requestBody'));
  });

  it('request bodies drop unknown fields, fill defaults and check formats without coercing', () => {
    const validate = ajvFor('requestBody').compile(schema);
    const body: Record<string, unknown> = { extra: true };
    expect(validate(body)).toBe(true);
    expect(body).toEqual({ count: 1 });
    expect(validate({ at: 'yesterday' })).toBe(false);
    expect(validate({ count: '3' })).toBe(false);
  });

  it('query values are coerced to the schema types', () => {
    const query: Record<string, unknown> = { count: '3' };
    expect(ajvFor('requestQuery').compile(schema)(query)).toBe(true);
    expect(query.count).toBe(3);
  });

  it('operator-written schemas keep fields they do not declare', () => {
    const value: Record<string, unknown> = { extra: true };
    expect(
      ajvFor('userSchema').compile({ type: 'object', properties: { count: { type: 'integer', default: 1 } } })(value),
    ).toBe(true);
    expect(value).toEqual({ extra: true, count: 1 });
  });

  it('strict purposes reject a schema with an unknown keyword', () => {
    expect(() => ajvFor('definition').compile({ type: 'object', colour: 'red' })).toThrow();
    expect(() => ajvFor('batchItem').compile({ type: 'object', colour: 'red' })).not.toThrow();
  });
});
