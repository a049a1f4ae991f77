import { databaseEndpoints as api } from '@rhizome/contracts/api/databases';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';

export function mountDatabaseRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const { databases } = platform;
  routes.add(api.list, async () => ({ databases: await databases.survey() }));
  routes.add(api.current, () => {
    const current = databases.currentName();
    return { current, info: databases.info(current) };
  });
  routes.add(api.switch, async ({ body }) => {
    const database = await databases.switchTo(body.name);
    return { success: true, message: `Switched to database '${body.name}'`, database };
  });
  routes.add(api.get, ({ params }) => databases.info(params.name));
  routes.add(api.create, ({ body }) => databases.create(body.name));
  routes.add(api.remove, ({ params }) => databases.remove(params.name));
}
