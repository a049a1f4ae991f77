import { templateEndpoints, type TemplateResponse } from '@rhizome/contracts/api/templates';
import { api } from '../../lib/api.ts';

/** Every template of the active database, page after page. */
export async function loadAllTemplates(signal?: AbortSignal): Promise<TemplateResponse[]> {
  const all: TemplateResponse[] = [];
  for (let page = 1; ; page += 1) {
    const result = await api.call(templateEndpoints.list, { query: { page, page_size: 1000 }, signal });
    all.push(...result.data);
    if (!result.pagination.has_next) return all;
  }
}
