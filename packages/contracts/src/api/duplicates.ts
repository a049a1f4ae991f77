import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { OneOf, Page, PageNumber } from './common.ts';

/** Pairs of entities that are probably one, for a person to merge or reject: an addition of Rhizome's. */

export const evidenceKinds = ['name_key', 'near_name', 'alias', 'shared_neighbours', 'vector', 'type'] as const;
export type EvidenceKind = (typeof evidenceKinds)[number];

export const DuplicateEvidence = Type.Object({
  kind: OneOf(evidenceKinds),
  detail: Type.String({ description: 'what was found, in words' }),
  weight: Type.Number({
    description:
      'how much it moved the score: positive for evidence of one entity, negative against (incompatible types)',
  }),
});

export const DuplicateNode = Type.Object({
  id: Type.String(),
  label: Type.String(),
  template_id: Type.String(),
  template_name: Type.String(),
  aliases: Type.Array(Type.String()),
  edge_count: Type.Integer(),
  citation_count: Type.Integer(),
  source_count: Type.Integer(),
});

export const DuplicateProposal = Type.Object({
  id: Type.String({ description: 'stable for the pair of nodes, whatever order they are named in' }),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  keep_id: Type.String({ description: 'the suggested survivor: the node with more citations and edges' }),
  nodes: Type.Array(DuplicateNode, { minItems: 2, maxItems: 2 }),
  evidence: Type.Array(DuplicateEvidence),
});
export type DuplicateProposal = Static<typeof DuplicateProposal>;

const ProposalIdParam = Type.Object({ proposal_id: Type.String({ minLength: 1 }) });

export const duplicateEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/graph/duplicates',
    tag: 'graph',
    status: 200,
    summary:
      'Pairs of entities that are probably one (same or near name, aliases, shared neighbours, similar vectors, compatible types), ' +
      'each with its evidence and a score, highest first. Accept one with POST /nodes/{keep_id}/merge; reject it with ' +
      'POST /graph/duplicates/{proposal_id}/reject and it is never proposed again',
    query: Type.Object({
      page: Type.Optional(PageNumber),
      page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
      min_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0.5 })),
    }),
    response: Page(DuplicateProposal),
  }),
  reject: endpoint({
    method: 'POST',
    path: '/graph/duplicates/{proposal_id}/reject',
    tag: 'graph',
    status: 200,
    errors: [404],
    summary: 'Not duplicates: the pair is never proposed again (the decision is stored with the database)',
    params: ProposalIdParam,
    response: Type.Object({ id: Type.String(), rejected: Type.Literal(true) }),
  }),
};
