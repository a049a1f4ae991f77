import { allTemplates } from '../graph/index.ts';
import { semanticTemplates } from './semantic.ts';
import type { SearchContext } from './types.ts';

/**
 * Node and edge templates for a query: those whose name or description holds one of its words, then
 * those nearest it in meaning, at most `limit` in all.
 */
export async function searchTemplates(context: SearchContext, query: string, limit: number) {
  const templates = await allTemplates(context.db);
  const byId = new Map(templates.map((template) => [template.id, template]));
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const named = templates.filter((template) =>
    words.some((word) => `${template.name} ${template.description ?? ''}`.toLowerCase().includes(word)),
  );
  const similar = await semanticTemplates(context, query, limit);
  const ranked = [...named, ...similar.items.flatMap((hit) => byId.get(hit.id) ?? [])];
  return {
    templates: [...new Map(ranked.map((template) => [template.id, template])).values()].slice(0, limit),
    fallback: similar.fallback,
  };
}
