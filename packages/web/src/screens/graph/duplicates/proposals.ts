import type { duplicateEndpoints } from '@rhizome/contracts/api/duplicates';
import type { nodeMergeEndpoints } from '@rhizome/contracts/api/node-merge';
import type { ResponseOf } from '@rhizome/contracts/endpoint';

/** One pair of entities that are probably one, with its evidence and score, as the API proposes it. */
export type DuplicateProposal = ResponseOf<typeof duplicateEndpoints.list>['data'][number];
export type DuplicateNode = DuplicateProposal['nodes'][number];
export type DuplicateEvidence = DuplicateProposal['evidence'][number];
/** A merge done earlier, which may still be undone. */
export type MergeRecord = ResponseOf<typeof nodeMergeEndpoints.merges>['data'][number];

/** The kept entity and the one merged into it, for the keep choice the person made. */
export function sidesOf(proposal: DuplicateProposal, keepId: string): { kept: DuplicateNode; merged: DuplicateNode } {
  const [first, second] = proposal.nodes;
  return first.id === keepId ? { kept: first, merged: second } : { kept: second, merged: first };
}

const evidenceNames: Record<DuplicateEvidence['kind'], string> = {
  name_key: 'Same name',
  near_name: 'Similar names',
  alias: 'Alias',
  shared_neighbours: 'Shared neighbours',
  vector: 'Similar meaning',
  type: 'Types',
};

export const evidenceName = (kind: DuplicateEvidence['kind']) => evidenceNames[kind];

/** A score of 0..1 as a person reads it. */
export const percentOf = (score: number) => `${Math.round(score * 100)} %`;
