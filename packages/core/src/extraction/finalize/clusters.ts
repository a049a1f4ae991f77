/**
 * Union-find over a step's entities, merging their data as clusters join, so that every merge is
 * transitive and each cluster's type is known when the next join is considered (a generic "X" may join
 * a Person "X", after which a Place "X" may not).
 */
import type { StepResult, WorkEntity } from './model.ts';
import { mergeEntities } from './merge.ts';
import type { TypeResolver } from './entity-types.ts';

export class EntityClusters {
  private readonly parent: Int32Array;
  private readonly merged: WorkEntity[];

  /** `entities` must be in first-seen order: the smaller index of a join is the older entity and the root. */
  constructor(
    private readonly entities: readonly WorkEntity[],
    private readonly types: TypeResolver,
  ) {
    this.parent = Int32Array.from(entities, (_entity, index) => index);
    this.merged = [...entities];
  }

  find(index: number): number {
    let root = index;
    while (this.parent[root] !== root) root = this.parent[root];
    while (this.parent[index] !== root) {
      const next = this.parent[index];
      this.parent[index] = root;
      index = next;
    }
    return root;
  }

  /** The merged entity of an index's cluster. */
  entity(index: number): WorkEntity {
    return this.merged[this.find(index)];
  }

  /** Joins two clusters when their types are compatible; false when already one or incompatible. */
  join(left: number, right: number, penalty = 0): boolean {
    const a = this.find(left);
    const b = this.find(right);
    if (a === b) return false;
    const ea = this.merged[a];
    const eb = this.merged[b];
    if (!this.types.compatible(ea.type, eb.type)) return false;
    const [root, child] = a < b ? [a, b] : [b, a];
    const type = this.types.specific(this.merged[root].type, this.merged[child].type);
    this.merged[root] = mergeEntities(this.merged[root], this.merged[child], { type, penalty });
    this.parent[child] = root;
    return true;
  }

  /** The merged entities in first-seen order and where each input index went. */
  result(): StepResult {
    const local = new Int32Array(this.entities.length);
    const entities: WorkEntity[] = [];
    const position = new Int32Array(this.entities.length).fill(-1);
    for (let index = 0; index < this.entities.length; index++) {
      const root = this.find(index);
      if (position[root] < 0) {
        position[root] = entities.length;
        entities.push(this.merged[root]);
      }
      local[index] = position[root];
    }
    return { entities, local };
  }
}
