import { sourceDomainEndpoints as api } from '@rhizome/contracts/api/source-domains';
import { domainRegistryFor } from '@rhizome/core/sources';
import type { RouteTable } from '../http/route.ts';
import type { RequestScope } from '../http/request-scope.ts';
import type { CortexDeps } from '../deps.ts';

/**
 * Custom extraction domains of the active database: read one, create (or copy), replace, delete. Mounted
 * before the sources' `{source_id}` routes; the drop-in files of the data directory are read at start.
 */
export function mountSourceDomainRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const domains = async (scope: RequestScope) => domainRegistryFor((await scope.database()).db, platform.paths.root);

  routes.add(api.get, async ({ params, scope }) => (await domains(scope)).entry(params.name));
  routes.add(api.create, async ({ body, scope }) => (await domains(scope)).create(body));
  routes.add(api.replace, async ({ params, body, scope }) => (await domains(scope)).replace(params.name, body));
  routes.add(api.remove, async ({ params, scope }) => {
    await (await domains(scope)).remove(params.name);
  });

  void platform.databases
    .current()
    .then(({ db }) => domainRegistryFor(db, platform.paths.root))
    .then((registry) => logDomainFiles(platform.logger, registry.reloadFiles()))
    .catch((error: unknown) => platform.logger.warning(`domain files: not read at start (${String(error)})`));
}

/** A line per drop-in file left out, so a bad file is seen in the log without stopping anything. */
export function logDomainFiles(
  logger: { info(message: string): void; warning(message: string): void },
  report: { directory: string; loaded: string[]; problems: { file: string; message: string }[] },
): void {
  if (report.loaded.length > 0)
    logger.info(`domain files: loaded ${report.loaded.join(', ')} from ${report.directory}`);
  for (const problem of report.problems)
    logger.warning(`domain files: ${problem.file} in ${report.directory} left out: ${problem.message}`);
}
