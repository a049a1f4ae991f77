import { schemaProblems, type JsonSchema } from '../json-schema.ts';
import { defineTool, ToolInputError } from './types.ts';

interface ExtractJsonInput {
  text: string;
  instructions?: string;
  schema?: JsonSchema;
  temperature?: number;
}

const systemPrompt = 'You extract structured data. Answer with one JSON value only: no prose, no code fences.';

/** `ai.extract_json`: asks the model for JSON about a text and parses (and optionally validates) the answer. */
export const aiExtractJson = defineTool<ExtractJsonInput>({
  id: 'ai.extract_json',
  category: 'ai',
  name: 'AI Extract JSON',
  description:
    'Asks the language model to extract structured data from a text as JSON, optionally checked against a JSON schema.',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    required: ['text'],
    properties: {
      text: { type: 'string', minLength: 1 },
      instructions: { type: 'string' },
      schema: { type: 'object' },
      temperature: { type: 'number', minimum: 0, maximum: 2 },
    },
  },
  outputSchema: { type: 'object', properties: { data: {}, raw: { type: 'string' } } },
  async run(input, context) {
    const schemaHint = input.schema ? `\nThe JSON must match this JSON schema:\n${JSON.stringify(input.schema)}` : '';
    const result = await context.llm.complete({
      operation: 'tool',
      system: systemPrompt,
      messages: [
        {
          role: 'user',
          content: `Text:\n${input.text}\n\n${input.instructions ?? 'Extract the key facts of the text as a JSON object.'}${schemaHint}`,
        },
      ],
      temperature: input.temperature ?? 0,
      thinking: context.thinking || undefined,
      signal: context.signal,
      context: { database: context.database },
    });
    const data = firstJsonValue(result.text);
    if (input.schema) {
      const problems = schemaProblems(input.schema, data);
      if (problems.length)
        throw new ToolInputError(`the model's JSON does not match the schema: ${problems.join('; ')}`);
    }
    return { data, raw: result.text };
  },
});

/** The first JSON object or array in a model's answer (models wrap JSON in prose or fences despite being told not to). */
export function firstJsonValue(text: string): unknown {
  for (let start = 0; start < text.length; start++) {
    const open = text[start];
    if (open !== '{' && open !== '[') continue;
    const end = matchingClose(text, start);
    if (end === -1) continue;
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      // not JSON after all: look further
    }
  }
  throw new ToolInputError('the model answered without a JSON object or array');
}

function matchingClose(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}
