import {
  IconCircleDot,
  IconFile,
  IconMessage,
  IconRoute,
  IconTemplate,
  IconTextCaption,
  type Icon,
} from '@tabler/icons-react';
import { chatEndpoints } from '@rhizome/contracts/api/chats';
import { searchEndpoints, type SearchResultBody } from '@rhizome/contracts/api/search';
import { sourceEndpoints } from '@rhizome/contracts/api/sources';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import { workflowEndpoints } from '@rhizome/contracts/api/workflows';
import { countOf } from '../../lib/format.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';
import { asTyped, matches } from './matches.ts';

/** One thing found by name, and where it opens. */
export interface PaletteHit {
  id: string;
  label: string;
  description?: string;
  icon: Icon;
  to: string;
}

export interface PaletteGroup {
  label: string;
  hits: PaletteHit[];
}

/** How many of each kind the palette lists. */
const perGroup = 5;

const sourceName = (source: { title: string | null; filename: string | null; origin_url: string | null; id: string }) =>
  source.title ?? source.filename ?? source.origin_url ?? source.id;

const entityHit = (node: NonNullable<SearchResultBody['node']>): PaletteHit => ({
  id: `entity:${node.id}`,
  label: node.label,
  description: countOf(node.edge_count, 'connection'),
  icon: IconCircleDot,
  to: `/entities/${encodeURIComponent(node.id)}`,
});

/**
 * Entities, sources, workflows and chats whose names match what was typed, each asked of the server
 * (`query` is already debounced; `null` asks nothing). Templates are few and are matched here.
 */
export function usePaletteLookup(query: string | null): { groups: PaletteGroup[]; loading: boolean } {
  const asked = query && query.length >= 2 ? query : null;
  const entities = useEndpoint(
    searchEndpoints.search,
    asked ? { query: { q: asTyped(asked), search_type: 'keyword', limit: 20 } } : null,
  );
  const sources = useEndpoint(sourceEndpoints.list, asked ? { query: { search: asked, page_size: perGroup } } : null);
  const workflows = useEndpoint(
    workflowEndpoints.list,
    asked ? { query: { search: asked, page_size: perGroup } } : null,
  );
  const chats = useEndpoint(chatEndpoints.list, asked ? { query: { q: asked, page_size: perGroup } } : null);
  const templates = useEndpoint(templateEndpoints.list, asked ? { query: { page_size: 500 } } : null);
  if (!asked) return { groups: [], loading: false };

  const groups: PaletteGroup[] = [
    {
      label: 'Entities',
      hits: (entities.data?.data ?? [])
        .flatMap((hit) => (hit.node ? [hit.node] : []))
        .slice(0, perGroup)
        .map(entityHit),
    },
    {
      label: 'Sources',
      hits: (sources.data?.data ?? []).map((source) => ({
        id: `source:${source.id}`,
        label: sourceName(source),
        description: (source.file_type ?? source.source_type).toUpperCase(),
        icon: IconFile,
        to: `/sources/${encodeURIComponent(source.id)}`,
      })),
    },
    {
      label: 'Templates',
      hits: (templates.data?.data ?? [])
        .filter((template) => matches(asked, template.name))
        .slice(0, perGroup)
        .map((template) => ({
          id: `template:${template.id}`,
          label: template.name,
          description: template.template_type === 'edge' ? 'Relationship type' : 'Entity type',
          icon: IconTemplate,
          to: `/templates/${encodeURIComponent(template.id)}`,
        })),
    },
    {
      label: 'Workflows',
      hits: (workflows.data?.data ?? []).map((workflow) => ({
        id: `workflow:${workflow.id}`,
        label: workflow.name,
        description: workflow.category,
        icon: IconRoute,
        to: `/automation/workflows/${encodeURIComponent(workflow.id)}`,
      })),
    },
    {
      label: 'Chats',
      hits: (chats.data?.data ?? []).map((chat) => ({
        id: `chat:${chat.id}`,
        label: chat.title,
        description: countOf(chat.message_count, 'message'),
        icon: IconMessage,
        to: `/chat/${encodeURIComponent(chat.id)}`,
      })),
    },
  ];
  const loading = [entities, sources, workflows, chats, templates].some((read) => read.loading);
  return { groups: groups.filter((group) => group.hits.length > 0), loading };
}

/** Search mode: passages and entities for the words after `?`; a passage opens its source at that passage. */
export function usePaletteSearch(query: string | null): {
  groups: PaletteGroup[];
  loading: boolean;
  error: string | null;
} {
  const result = useEndpoint(
    searchEndpoints.search,
    query ? { query: { q: query, search_type: 'keyword', limit: 12 } } : null,
  );
  if (!query) return { groups: [], loading: false, error: null };
  const hits = result.data?.data ?? [];
  const passages = hits.flatMap((hit) => (hit.chunk ? [hit.chunk] : []));
  const nodes = hits.flatMap((hit) => (hit.node ? [hit.node] : []));
  const groups: PaletteGroup[] = [
    {
      label: 'Passages',
      hits: passages.map((chunk) => ({
        id: `passage:${chunk.chunk_id}`,
        label: chunk.content.length > 140 ? `${chunk.content.slice(0, 140)}…` : chunk.content,
        description: `${chunk.filename}, passage ${chunk.chunk_index + 1}`,
        icon: IconTextCaption,
        to: `/sources/${encodeURIComponent(chunk.source_id)}?chunk=${encodeURIComponent(chunk.chunk_id)}`,
      })),
    },
    {
      label: 'Entities',
      hits: nodes.map(entityHit),
    },
  ];
  return { groups: groups.filter((group) => group.hits.length > 0), loading: result.loading, error: result.error };
}
