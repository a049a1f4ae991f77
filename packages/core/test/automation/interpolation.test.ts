import { describe, expect, it } from 'vitest';
import { interpolate, referencesIn, type InterpolationScope } from '../../src/automation/workflows/interpolation.ts';

const scope: InterpolationScope = {
  inputs: { n: 3, ok: false, list: [1, { deep: 'x' }], obj: { a: 1 }, text: 'hi', none: null },
  steps: { fetch: { output: { body: { items: ['a', 'b'] }, status: 200 }, status: 'completed', error: null } },
};

describe('interpolation', () => {
  it('keeps the type of a reference that is the whole value', () => {
    expect(interpolate('{{inputs.n}}', scope)).toBe(3);
    expect(interpolate('{{ inputs.ok }}', scope)).toBe(false);
    expect(interpolate('{{inputs.list}}', scope)).toEqual([1, { deep: 'x' }]);
    expect(interpolate('{{inputs.list.1.deep}}', scope)).toBe('x');
    expect(interpolate('{{steps.fetch.output.body.items.1}}', scope)).toBe('b');
    expect(interpolate('{{steps.fetch.status}}', scope)).toBe('completed');
    expect(interpolate('{{inputs.none}}', scope)).toBeNull();
  });

  it('writes references out inside mixed text, objects as JSON', () => {
    expect(interpolate('n={{inputs.n}}, ok={{inputs.ok}}, obj={{inputs.obj}}', scope)).toBe(
      'n=3, ok=false, obj={"a":1}',
    );
    expect(interpolate('{{inputs.text}} {{inputs.text}}', scope)).toBe('hi hi');
  });

  it('turns an unresolvable reference into null, or an empty string inside text', () => {
    expect(interpolate('{{inputs.missing}}', scope)).toBeNull();
    expect(interpolate('{{steps.ghost.output}}', scope)).toBeNull();
    expect(interpolate('{{inputs.list.9}}', scope)).toBeNull();
    expect(interpolate('[{{inputs.missing}}]', scope)).toBe('[]');
  });

  it('walks objects and arrays, leaving other values and the scope untouched', () => {
    const config = { a: ['{{inputs.n}}', 'x{{inputs.n}}'], b: { c: '{{inputs.obj}}' }, d: 5, e: null };
    const result = interpolate(config, scope) as { b: { c: { a: number } } };
    expect(result).toEqual({ a: [3, 'x3'], b: { c: { a: 1 } }, d: 5, e: null });
    result.b.c.a = 99;
    expect(scope.inputs.obj).toEqual({ a: 1 });
  });

  it('finds every reference in a configuration', () => {
    expect(referencesIn({ a: ['{{inputs.n}} and {{ steps.fetch.output }}'], b: { c: '{{x}}' }, d: 1 })).toEqual([
      'inputs.n',
      'steps.fetch.output',
      'x',
    ]);
  });
});
