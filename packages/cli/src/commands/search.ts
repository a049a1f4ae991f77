import { RequestError } from '@rhizome/client';
import { searchEndpoints, searchTypes, type SearchResultBody, type SearchType } from '@rhizome/contracts/api/search';
import { templateEndpoints } from '@rhizome/contracts/api/templates';
import { Option, type Command } from 'commander';
import { positiveInteger } from '../options.ts';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';

interface SearchOptions {
  mode: SearchType;
  limit?: number;
}

const oneLine = (text: string, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The display names ("Item") of the templates of the entities among `hits`, by template id. */
async function templateNames(remote: Remote, hits: SearchResultBody[]): Promise<Map<string, string>> {
  const ids = new Set(hits.flatMap((hit) => (hit.node?.template_id ? [hit.node.template_id] : [])));
  const names = new Map<string, string>();
  for (const id of ids) {
    try {
      names.set(id, (await remote.client.call(templateEndpoints.get, { params: { template_id: id } })).name);
    } catch (error) {
      // A template deleted since the search leaves its id to show.
      if (!(error instanceof RequestError && error.status === 404)) throw error;
    }
  }
  return names;
}

async function search(remote: Remote, query: string, options: SearchOptions): Promise<void> {
  const result = await remote.client.call(searchEndpoints.search, {
    query: { q: query, search_type: options.mode, limit: options.limit },
  });
  if (remote.json) return printJson(remote.io, result);
  if (result.fallback) remote.io.err(`(${result.fallback})`);
  if (!result.data.length) return remote.io.out('No results.');
  const templates = await templateNames(remote, result.data);
  result.data.forEach((hit, index) => {
    const score = hit.score.toFixed(2);
    if (hit.chunk) {
      const page = hit.chunk.page_number === null ? '' : `, p. ${hit.chunk.page_number}`;
      remote.io.out(`${index + 1}. [${score}] ${hit.chunk.filename}${page}\n   ${oneLine(hit.chunk.content)}`);
    } else if (hit.node) {
      const { label, template_id: templateId, edge_count: edges } = hit.node;
      const kind = (templateId && templates.get(templateId)) || templateId || 'entity';
      remote.io.out(`${index + 1}. [${score}] ${label} (${kind}, ${edges} edges)`);
    }
  });
}

/** A `search` command under `parent` (the top level, and `sources`). */
export function registerSearchOn(parent: Command, runner: CommandRunner, description: string): void {
  parent
    .command('search')
    .description(description)
    .argument('<query>')
    .addOption(new Option('-m, --mode <mode>', 'how to search').choices(searchTypes).default('hybrid'))
    .option('-l, --limit <n>', 'at most this many results', positiveInteger)
    .action(runner.remote((remote, query: string, options: SearchOptions) => search(remote, query, options)));
}

export const registerSearch = (program: Command, runner: CommandRunner) =>
  registerSearchOn(program, runner, 'Search the knowledge base');
