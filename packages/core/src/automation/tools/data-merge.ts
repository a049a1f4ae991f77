import { defineTool, ToolInputError } from './types.ts';

interface MergeInput {
  items: unknown[];
  strategy: 'shallow' | 'deep';
}

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `data.merge`: objects merged left to right (later wins), or arrays concatenated. */
export const dataMerge = defineTool<MergeInput>({
  id: 'data.merge',
  category: 'data',
  name: 'Merge Data',
  description: 'Merges objects left to right (later values win; deep merges nested objects) or concatenates arrays.',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    required: ['items'],
    properties: {
      items: { type: 'array', minItems: 1 },
      strategy: { type: 'string', enum: ['shallow', 'deep'], default: 'shallow' },
    },
  },
  outputSchema: { type: 'object', properties: { result: {} } },
  run(input) {
    const present = input.items.filter((item) => item !== null && item !== undefined);
    if (present.every(Array.isArray)) return Promise.resolve({ result: present.flat() });
    if (!present.every(isPlain)) throw new ToolInputError('items must be all objects or all arrays');
    const merge = input.strategy === 'deep' ? deepMerge : (left: Plain, right: Plain) => ({ ...left, ...right });
    return Promise.resolve({ result: present.reduce<Plain>((merged, item) => merge(merged, item), {}) });
  },
});

function deepMerge(left: Plain, right: Plain): Plain {
  const merged: Plain = { ...left };
  for (const [key, value] of Object.entries(right)) {
    const current = merged[key];
    merged[key] = isPlain(current) && isPlain(value) ? deepMerge(current, value) : value;
  }
  return merged;
}
