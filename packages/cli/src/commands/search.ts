import { searchEndpoints, searchTypes, type SearchType } from '@rhizome/contracts/api/search';
import { Option, type Command } from 'commander';
import { printJson } from '../output.ts';
import type { Remote } from '../remote.ts';
import type { CommandRunner } from '../runner.ts';

interface SearchOptions {
  mode: SearchType;
  limit?: string;
}

const oneLine = (text: string, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

async function search(remote: Remote, query: string, options: SearchOptions): Promise<void> {
  const limit = options.limit === undefined ? undefined : Number(options.limit);
  const result = await remote.client.call(searchEndpoints.search, {
    query: { q: query, search_type: options.mode, limit },
  });
  if (remote.json) return printJson(remote.io, result);
  if (result.fallback) remote.io.err(`(${result.fallback})`);
  if (!result.data.length) return remote.io.out('No results.');
  result.data.forEach((hit, index) => {
    const score = hit.score.toFixed(2);
    if (hit.chunk) {
      const page = hit.chunk.page_number === null ? '' : `, p. ${hit.chunk.page_number}`;
      remote.io.out(`${index + 1}. [${score}] ${hit.chunk.filename}${page}\n   ${oneLine(hit.chunk.content)}`);
    } else if (hit.node)
      remote.io.out(
        `${index + 1}. [${score}] ${hit.node.label} (${hit.node.template_id ?? 'entity'}, ${hit.node.edge_count} edges)`,
      );
  });
}

export function registerSearch(program: Command, runner: CommandRunner): void {
  program
    .command('search')
    .description('Search the knowledge base')
    .argument('<query>')
    .addOption(new Option('--mode <mode>', 'how to search').choices(searchTypes).default('hybrid'))
    .option('--limit <n>', 'at most this many results')
    .action(runner.remote((remote, query: string, options: SearchOptions) => search(remote, query, options)));
}
