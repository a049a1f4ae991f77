import { edgeEndpoints, nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import type { TemplateResponse } from '@rhizome/contracts/api/templates';
import { api } from '../../lib/api.ts';

const edgePageSize = 1000;

/**
 * How many nodes or edges use each template, counted exactly: a node template's total comes from the node
 * list filtered by it; edges cannot be filtered by template, so their minimal list is read once and counted.
 */
export async function loadTemplateUsage(
  templates: TemplateResponse[],
  signal: AbortSignal,
): Promise<Map<string, number>> {
  const usage = new Map<string, number>();
  const nodeTemplates = templates.filter((template) => template.template_type === 'node');
  await Promise.all(
    nodeTemplates.map(async (template) => {
      const page = await api.call(nodeEndpoints.list, {
        query: { template_id: template.id, minimal: true, page_size: 1 },
        signal,
      });
      usage.set(template.id, page.pagination.total);
    }),
  );
  if (templates.some((template) => template.template_type === 'edge')) {
    for (let page = 1; ; page += 1) {
      const edges = await api.call(edgeEndpoints.list, {
        query: { minimal: true, page, page_size: edgePageSize },
        signal,
      });
      for (const edge of edges.data) usage.set(edge.template_id, (usage.get(edge.template_id) ?? 0) + 1);
      if (!edges.pagination.has_next) break;
    }
  }
  return usage;
}
