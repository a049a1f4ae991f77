import { compare, conditionOperators, type Comparison } from '../conditions.ts';
import { defineTool } from './types.ts';

/** `logic.conditional`: evaluates a comparison; later steps branch on `{{steps.<id>.output.result}}`. */
export const logicConditional = defineTool<Comparison>({
  id: 'logic.conditional',
  category: 'logic',
  name: 'Conditional',
  description:
    'Compares a value (equals, not_equals, greater_than, less_than, contains, exists, truthy, falsy); later steps use the result in their condition.',
  version: '1.0.0',
  inputSchema: {
    type: 'object',
    required: ['value'],
    properties: {
      value: {},
      operator: { type: 'string', enum: [...conditionOperators], default: 'truthy' },
      compare_to: {},
    },
  },
  outputSchema: {
    type: 'object',
    properties: { result: { type: 'boolean' }, branch: { type: 'string', enum: ['true', 'false'] } },
  },
  run(input) {
    const result = compare(input);
    return Promise.resolve({ result, branch: result ? 'true' : 'false' });
  },
});
