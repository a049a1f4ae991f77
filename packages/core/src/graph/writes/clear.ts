import type { Db } from '../../storage/index.ts';
import { clearGraphContents, clearUserTemplates } from '../reset.ts';

/**
 * Empties the graph in the caller's transaction (an import that replaces a database): its contents and
 * every template but the system ones.
 */
export async function clearGraph(trx: Db): Promise<void> {
  await clearGraphContents(trx);
  await clearUserTemplates(trx);
}
