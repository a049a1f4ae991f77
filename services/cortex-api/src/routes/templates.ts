import { submitDatabaseTask } from '@rhizome/core/tasks';
import { templateEndpoints as api } from '@rhizome/contracts/api/templates';
import { templateBatchOperation, templateEmbeddingsOperation } from '@rhizome/core/graph';
import { TemplateService } from '@rhizome/core/graph';
import type { CortexDeps } from '../deps.ts';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RouteTable } from '../http/route.ts';

/** Templates of the active database (spec Part B, Templates). */
export function mountTemplateRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const service = async () => {
    const { name, db } = await platform.databases.current();
    return { name, templates: new TemplateService(db) };
  };
  const queued = async (operation: string, data: Record<string, unknown>, message: string) => {
    const task = await submitDatabaseTask(platform.queue, platform.databases.currentName(), operation, data);
    return { task_id: task.task_id, status: 'queued' as const, message };
  };

  routes.add(api.list, async ({ query }) => {
    const window = pageWindow(query, platform.settings.get().pagination);
    const { templates } = await service();
    const { templates: page, total } = await templates.list({ templateType: query.template_type, offset: window.offset, limit: window.pageSize });
    return { data: page, pagination: pagination(total, window) };
  });
  routes.add(api.create, async ({ body }) => (await service()).templates.create(body));
  routes.add(api.embeddings, () => queued(templateEmbeddingsOperation, {}, 'Template embeddings are being regenerated'));
  routes.add(api.batch, ({ body }) =>
    queued(templateBatchOperation, { operations: body.operations }, `${body.operations.length} template operation(s) queued`),
  );
  routes.add(api.get, async ({ params }) => (await service()).templates.get(params.template_id));
  routes.add(api.update, async ({ params, body }) => (await service()).templates.update(params.template_id, body));
  routes.add(api.remove, async ({ params, query }) => {
    await (await service()).templates.remove(params.template_id, { force: query.force ?? false });
  });
}
