import { describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '@rhizome/contracts/settings';
import { visionAvailable, visionDecision, visionUnavailableReason } from '../../src/sources/vision.ts';

const defaults = defaultSettings();
const withLlm = (llm: Partial<Settings['llm']>): Settings => ({ ...defaults, llm: { ...defaults.llm, ...llm } });

describe('whether images get a vision model', () => {
  it('is off with the builtin provider and with a local provider until a vision model is set', () => {
    expect(visionAvailable(defaults)).toBe(false);
    expect(visionUnavailableReason(defaults)).toMatch(/^No vision model is configured/);
    expect(visionAvailable(withLlm({ chat_provider: 'localllm', localllm_vision_model: null }))).toBe(false);
    expect(visionAvailable(withLlm({ chat_provider: 'localllm', localllm_vision_model: 'qwen3-vl:8b' }))).toBe(true);
  });

  it('uses a cloud chat model the catalogue says reads images, dated snapshots included', () => {
    expect(visionAvailable(withLlm({ chat_provider: 'openai', openai_chat_model: 'gpt-4.1' }))).toBe(true);
    expect(visionAvailable(withLlm({ chat_provider: 'openai', openai_chat_model: 'gpt-4.1-2025-04-14' }))).toBe(true);
    expect(
      visionAvailable(withLlm({ chat_provider: 'anthropic', anthropic_chat_model: 'claude-sonnet-4-5-20250929' })),
    ).toBe(true);
    const unknown = withLlm({ chat_provider: 'openai', openai_chat_model: 'my-finetune' });
    expect(visionAvailable(unknown)).toBe(false);
    expect(visionUnavailableReason(unknown)).toMatch(/'my-finetune' is not known to read images/);
  });

  it('follows the source’s enable_vision: false never calls, true tries an uncatalogued cloud model, null auto-detects', () => {
    const local = withLlm({ chat_provider: 'localllm', localllm_vision_model: 'qwen3-vl:8b' });
    expect(visionDecision(local, false)).toEqual({ run: false, warning: null });
    expect(visionDecision(local, null)).toEqual({ run: true });
    const unknown = withLlm({ chat_provider: 'openai', openai_chat_model: 'my-finetune' });
    expect(visionDecision(unknown, true)).toEqual({ run: true });
    expect(visionDecision(unknown, null)).toMatchObject({
      run: false,
      warning: expect.stringMatching(/enable_vision=true/),
    });
    // Nothing to try without a model, however the source asks.
    expect(visionDecision(defaults, true)).toMatchObject({
      run: false,
      warning: expect.stringMatching(/^No vision model/),
    });
  });
});
