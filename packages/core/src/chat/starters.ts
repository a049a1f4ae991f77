/**
 * Questions a new chat can start from, built from the graph's most central entities (best first): one
 * question about each, and one about how the two most central ones are related.
 */

export interface StarterEntity {
  id: string;
  label: string;
}

export interface ChatStarter {
  question: string;
  node_ids: string[];
}

export function chatStarters(entities: readonly StarterEntity[], limit: number): ChatStarter[] {
  const [first, second] = entities;
  const pair: ChatStarter[] =
    first && second
      ? [{ question: `How are ${first.label} and ${second.label} related?`, node_ids: [first.id, second.id] }]
      : [];
  const single = entities.map((entity) => ({
    question: `What do my sources say about ${entity.label}?`,
    node_ids: [entity.id],
  }));
  // The relation question comes second: the most central entity alone is the most likely first question.
  return [...single.slice(0, 1), ...pair, ...single.slice(1)].slice(0, limit);
}
