import { edgeEndpoints, nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import type { TemplateResponse } from '@rhizome/contracts/api/templates';
import { useRefresh } from '../../lib/data/use-action.ts';
import { useEndpointEach, useEndpointPages } from '../../lib/data/use-endpoint.ts';

const counted = [
  { tag: nodeEndpoints.list.tag, endpoint: nodeEndpoints.list },
  { tag: edgeEndpoints.list.tag, endpoint: edgeEndpoints.list },
];

/**
 * How many nodes or edges use each template, counted exactly: a node template's total comes from the node
 * list filtered by it; edges cannot be filtered by template, so their minimal list is read once and counted.
 */
export function useTemplateUsage(templates: TemplateResponse[] | undefined): {
  data: Map<string, number> | undefined;
  error: string | null;
  reload: () => Promise<void>;
} {
  const refresh = useRefresh();
  const nodeTemplates = templates?.filter((template) => template.template_type === 'node');
  const anyEdgeTemplate = templates?.some((template) => template.template_type === 'edge');
  const nodes = useEndpointEach(
    nodeEndpoints.list,
    nodeTemplates?.map((template) => ({ query: { template_id: template.id, minimal: true, page_size: 1 } })),
  );
  const edges = useEndpointPages(edgeEndpoints.list, anyEdgeTemplate ? { query: { minimal: true } } : null);
  const error = nodes.error ?? edges.error;
  const reload = () => refresh(counted);
  if (!templates || !nodeTemplates || !nodes.data || (anyEdgeTemplate && !edges.data))
    return { data: undefined, error, reload };
  const usage = new Map<string, number>();
  nodeTemplates.forEach((template, at) => usage.set(template.id, nodes.data?.[at].pagination.total ?? 0));
  for (const edge of edges.data ?? []) usage.set(edge.template_id, (usage.get(edge.template_id) ?? 0) + 1);
  return { data: usage, error, reload };
}
