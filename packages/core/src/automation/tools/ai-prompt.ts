import { defineTool } from './types.ts';

interface PromptInput {
  prompt: string;
  system?: string;
  temperature?: number;
  max_tokens?: number;
}

/** `ai.prompt`: one completion from the configured chat model. */
export const aiPrompt = defineTool<PromptInput>({
  id: 'ai.prompt',
  category: 'ai',
  name: 'AI Prompt',
  description: 'Sends a prompt to the configured language model and returns its answer.',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    required: ['prompt'],
    properties: {
      prompt: { type: 'string', minLength: 1 },
      system: { type: 'string' },
      temperature: { type: 'number', minimum: 0, maximum: 2 },
      max_tokens: { type: 'integer', minimum: 1 },
    },
  },
  outputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string' },
      model: { type: 'string' },
      provider: { type: 'string' },
      usage: { type: 'object', properties: { input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' } } },
    },
  },
  async run(input, context) {
    const result = await context.llm.complete({
      operation: 'tool',
      system: input.system,
      messages: [{ role: 'user', content: input.prompt }],
      temperature: input.temperature,
      maxTokens: input.max_tokens,
      thinking: context.thinking || undefined,
      signal: context.signal,
      context: { database: context.database },
    });
    return {
      text: result.text,
      model: result.model,
      provider: result.provider,
      usage: { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens },
    };
  },
});
