/**
 * Step 3: entities whose normalised names are equal, or whose name is another's alias, are one entity
 * when their types are compatible. Incompatible types stay apart under the same key. Two aliases alike
 * do not make a match ("the Curies" may be an alias of two people).
 *
 * A name that is an alias of several entities is ambiguous and merges with none of them: with "Marie
 * Curie" and "Pierre Curie" both known as "Curie", an entity named "Curie" stays apart (whatever the
 * order they were seen in) rather than joining the two people into one.
 */
import { EntityClusters } from './clusters.ts';
import type { StepResult, WorkEntity } from './model.ts';
import { normalizeNameKey } from './names.ts';
import type { TypeResolver } from './entity-types.ts';

function push(index: Map<string, number[]>, key: string, value: number): void {
  const list = index.get(key);
  if (list) list.push(value);
  else index.set(key, [value]);
}

export function exactDedup(entities: WorkEntity[], types: TypeResolver): { step: StepResult; merges: number } {
  const clusters = new EntityClusters(entities, types);
  let merges = 0;

  // Same name key: each entity joins the first compatible cluster of its key, else starts one.
  const clustersByName = new Map<string, number[]>();
  entities.forEach((entity, index) => {
    const reps = clustersByName.get(entity.key);
    if (!reps) return void clustersByName.set(entity.key, [index]);
    if (reps.some((rep) => clusters.join(rep, index))) merges++;
    else reps.push(index);
  });

  // Name ↔ alias: a name cluster joins the one cluster that lists its name as an alias.
  const holders = new Map<string, number[]>();
  entities.forEach((entity, index) => {
    for (const key of new Set(entity.aliases.map((alias) => normalizeNameKey(alias)))) push(holders, key, index);
  });
  for (const [key, reps] of clustersByName) {
    const holding = holders.get(key);
    if (!holding) continue;
    for (const rep of reps) {
      const own = clusters.find(rep);
      const type = clusters.entity(rep).type;
      const others = new Set(
        holding
          .map((holder) => clusters.find(holder))
          .filter((root) => root !== own && types.compatible(type, clusters.entity(root).type)),
      );
      if (others.size === 1 && clusters.join(rep, [...others][0])) merges++;
    }
  }
  return { step: clusters.result(), merges };
}
