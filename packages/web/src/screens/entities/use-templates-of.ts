import { useMemo } from 'react';
import { templateEndpoints, type TemplateResponse } from '@rhizome/contracts/api/templates';
import { templateLabel } from '../../lib/graph-labels.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

/** The node or edge templates, with each one's name as people read it, for type filters, columns and pickers. */
export function useTemplatesOf(templateType: 'node' | 'edge') {
  const templates = useEndpoint(templateEndpoints.list, { query: { template_type: templateType, page_size: 1000 } });
  return useMemo(() => {
    const list: TemplateResponse[] = templates.data?.data ?? [];
    const names = new Map(list.map((template) => [template.id, templateLabel(template.name)]));
    const options = list.map((template) => ({ value: template.id, label: templateLabel(template.name) }));
    return { list, names, options, nameOf: (id: string) => names.get(id) ?? id };
  }, [templates.data]);
}
