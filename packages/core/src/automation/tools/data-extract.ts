import { valueAtPath } from './data-path.ts';
import { defineTool } from './types.ts';

interface ExtractInput {
  data: unknown;
  path?: string;
  fields?: Record<string, string>;
  default?: unknown;
}

/** `data.extract`: picks values out of structured data by dotted paths (`items.0.name`). */
export const dataExtract = defineTool<ExtractInput>({
  id: 'data.extract',
  category: 'data',
  name: 'Extract Data',
  description:
    'Picks one value (path) or several named values (fields: name → path) out of structured data; missing values become the default.',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    required: ['data'],
    properties: {
      data: {},
      path: { type: 'string' },
      fields: { type: 'object', additionalProperties: { type: 'string' } },
      default: {},
    },
  },
  outputSchema: { type: 'object', properties: { value: {}, values: { type: 'object' } } },
  run(input) {
    const fallback = input.default ?? null;
    const read = (path: string) => valueAtPath(input.data, path) ?? fallback;
    const output: Record<string, unknown> = { value: input.path === undefined ? null : read(input.path) };
    if (input.fields)
      output.values = Object.fromEntries(Object.entries(input.fields).map(([name, path]) => [name, read(path)]));
    return Promise.resolve(output);
  },
});
