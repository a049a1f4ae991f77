import { describe, expect, it } from 'vitest';
import { classifyError } from '@rhizome/queue';
import { kindOfStatus, LlmError, llmFailure } from '../../src/providers/llm/errors.ts';

describe('LlmError', () => {
  it('classes provider statuses: 429 rate limit, 401/403 auth, 404 missing model, 408/5xx unavailable, other 4xx bad request', () => {
    expect([429, 401, 403, 404, 408, 500, 503, 400, 422].map(kindOfStatus)).toEqual([
      'rate_limited',
      'auth',
      'auth',
      'model_missing',
      'unavailable',
      'unavailable',
      'unavailable',
      'bad_request',
      'bad_request',
    ]);
  });

  it('tells the task queue whether a retry can help, with a machine-readable error type', () => {
    expect(classifyError(new LlmError('rate_limited', 'slow down', 429))).toEqual({
      permanent: false,
      type: 'llm_rate_limited',
      message: 'slow down',
    });
    expect(classifyError(new LlmError('timeout', 'too slow'))).toMatchObject({ permanent: false, type: 'llm_timeout' });
    expect(classifyError(new LlmError('auth', 'bad key', 401))).toEqual({
      permanent: true,
      type: 'llm_auth',
      message: 'bad key',
    });
    expect(classifyError(new LlmError('model_missing', 'pull it', 404))).toMatchObject({
      permanent: true,
      type: 'llm_model_missing',
    });
  });

  it('turns a provider rate limit into rate_limited, anything else into unavailable', () => {
    expect(llmFailure(new LlmError('rate_limited', 'slow down', 429))).toMatchObject({
      kind: 'rate_limited',
      code: 'HTTP_429',
    });
    expect(llmFailure(new LlmError('unavailable', 'down'))).toMatchObject({ kind: 'unavailable', code: 'HTTP_503' });
  });
});
