import { templateEndpoints as api } from '@rhizome/contracts/api/templates';
import { graphModule } from '@rhizome/core/graph';
import type { CortexDeps } from '../deps.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';

/** Templates of the active database. */
export function mountTemplateRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  routes.add(api.list, async ({ query, scope }) => {
    const window = pageWindow(query, platform.settings.get().pagination);
    const { templates: page, total } = await (
      await scope.service(graphModule)
    ).templates.list({
      templateType: query.template_type,
      offset: window.offset,
      limit: window.pageSize,
    });
    return { data: page, pagination: pagination(total, window) };
  });
  routes.add(api.create, async ({ body, scope }) => (await scope.service(graphModule)).templates.create(body));
  routes.add(api.embeddings, async ({ scope }) => (await scope.service(graphModule)).queueTemplateEmbeddings());
  routes.add(api.batch, async ({ body, scope }) =>
    (await scope.service(graphModule)).queueTemplateBatch(body.operations),
  );
  routes.add(api.get, async ({ params, scope }) =>
    (await scope.service(graphModule)).templates.get(params.template_id),
  );
  routes.add(api.update, async ({ params, body, scope }) =>
    (await scope.service(graphModule)).templates.update(params.template_id, body),
  );
  routes.add(api.remove, async ({ params, query, scope }) => {
    await (await scope.service(graphModule)).templates.remove(params.template_id, { force: query.force ?? false });
  });
}
