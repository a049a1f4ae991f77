/**
 * The values-only pass of `pnpm depcheck`: type-only imports are erased before the code runs, so here they
 * are not followed at all. dependency-cruiser reports one cycle path per dependency, and with type imports
 * in the graph that path may run through a type-only edge and be let off while a cycle of value imports
 * exists beside it; without them every cycle found is one of values.
 */
import main from './.dependency-cruiser.cjs';

export default {
  forbidden: main.forbidden.filter((rule) => rule.name === 'no-runtime-cycles'),
  options: { ...main.options, tsPreCompilationDeps: false },
};
