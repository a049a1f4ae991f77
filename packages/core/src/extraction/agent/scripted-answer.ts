import type { ChatStreamEvent, LlmService } from '../../providers/index.ts';

/**
 * The agent's lines in place of a model's streamed answer: the harvest reads them through the very code
 * that reads a model (line splitting, parsing, loop guards, evidence and type checks). Each pass gets
 * the lines given for it; a pass with none gets an empty answer.
 */
export function scriptedAnswer(lines: {
  entities: readonly string[];
  relationships: readonly string[];
}): Pick<LlmService, 'stream'> {
  return {
    async *stream(request: Parameters<LlmService['stream']>[0]): AsyncIterable<ChatStreamEvent> {
      const pass = request.extraction?.pass === 'relationships' ? lines.relationships : lines.entities;
      if (pass.length) yield { type: 'text', delta: `${pass.join('\n')}\n` };
      yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 }, model: 'agent' };
    },
  };
}
