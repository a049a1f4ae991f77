/**
 * Steps 9–12 under the source's rules, relaxed when they would leave the source with no entity: first
 * without strict edge types (the generic rules), then keeping unlinked entities. A relaxed run says why.
 */
import type { FinalizeStats } from '../types.ts';
import type { WorkEntity, WorkRelationship } from './model.ts';

export interface EdgeRules {
  strictEdgeTypes: boolean;
  protectOrphans: boolean;
}

export interface RuleRun {
  entities: WorkEntity[];
  relationships: WorkRelationship[];
  stats: FinalizeStats;
}

/** Runs `apply` under the rules, then relaxed ones while it keeps no entity of the `entities` it was given. */
export function keepingEntities(
  entities: readonly WorkEntity[],
  rules: EdgeRules,
  domain: string,
  apply: (rules: EdgeRules) => RuleRun,
): RuleRun & { relaxed: string | null } {
  const strict = apply(rules);
  if (strict.entities.length > 0 || entities.length === 0) return { ...strict, relaxed: null };
  const generic = rules.strictEdgeTypes ? apply({ ...rules, strictEdgeTypes: false }) : strict;
  if (generic.entities.length > 0)
    return {
      ...generic,
      relaxed: `None of the ${entities.length} entities found had a relationship of the ${domain} domain's types, so this source was finalised with the generic rules to keep them.`,
    };
  const kept = `so they are kept unlinked instead of being dropped as orphans`;
  return {
    ...apply({ strictEdgeTypes: false, protectOrphans: true }),
    relaxed: rules.strictEdgeTypes
      ? `None of the ${entities.length} entities found is linked by a relationship of the ${domain} domain's types, ${kept}.`
      : `None of the ${entities.length} entities found is linked by a relationship, ${kept}.`,
  };
}
