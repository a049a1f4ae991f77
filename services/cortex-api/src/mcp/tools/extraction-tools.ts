import { Type } from '@sinclair/typebox';
import { agentExtractionFor, type AgentExtraction } from '@rhizome/core/extraction';
import { sourcesModule } from '@rhizome/core/sources';
import type { ToolContext } from '../tool.ts';
import { tool } from '../tool.ts';
import { sourceProgress } from './source-tools.ts';

const SourceId = Type.String({
  minLength: 1,
  description: 'the source to extract (indexed, with extract_entities false, or extracted)',
});

/** The active database's agent extractions, with the ones left untouched too long moved to error first. */
export async function agentExtraction({ platform, scope }: ToolContext): Promise<AgentExtraction> {
  const service = agentExtractionFor(platform, await scope.database());
  await service.abandonIdle();
  return service;
}

const finished = ['committed', 'error', 'indexed'];

export const extractionTools = [
  tool({
    name: 'get_extraction_tasks',
    kind: 'write',
    description:
      "Start (or resume) extracting a source yourself: returns its groups, each with the prompt the server's extractor would send; answer each with submit_chunk_extraction.",
    input: Type.Object({
      source_id: SourceId,
      domain: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description: "the domain whose types to use (default: the source's)",
        }),
      ),
      analysis_depth: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('quick')])),
      force: Type.Boolean({
        default: false,
        description: 'true: re-extract a committed source (its contribution is replaced at commit)',
      }),
      offset: Type.Integer({ minimum: 0, default: 0, description: 'first group to return' }),
      limit: Type.Integer({ minimum: 1, maximum: 50, default: 5, description: 'groups to return' }),
    }),
    async run({ source_id, domain, analysis_depth, force, offset, limit }, context) {
      const service = await agentExtraction(context);
      const job = await service.start(source_id, { domain, analysis_depth, force });
      const { tasks } = await service.tasks(source_id, { offset, limit });
      return {
        source_id,
        job_id: job.id,
        domain: job.domain,
        total_groups: job.total_groups,
        offset,
        tasks,
        how:
          'For each task: send its prompt to yourself and submit the E and P lines it asks for with pass "entities"; the reply lists the entities kept and the ' +
          'relationship prompt, answered with R lines and pass "relationships". A group with fewer than two entities is done after its first pass. When no group is ' +
          'left, call finalize_extraction.',
      };
    },
  }),
  tool({
    name: 'submit_chunk_extraction',
    kind: 'write',
    description:
      "Submit your answer to one group's prompt: E and P lines (pass entities) or R lines (pass relationships), checked exactly like the server model's answer.",
    input: Type.Object({
      source_id: SourceId,
      group_index: Type.Integer({ minimum: 0 }),
      pass: Type.Union([Type.Literal('entities'), Type.Literal('relationships')]),
      lines: Type.Array(Type.String({ maxLength: 20_000 }), {
        maxItems: 5000,
        description: 'one record per item, e.g. "E|Ada Lovelace|Person||0.9|S1|…"',
      }),
    }),
    async run({ source_id, group_index, pass, lines }, context) {
      return (await agentExtraction(context)).submit(source_id, group_index, pass, lines);
    },
  }),
  tool({
    name: 'finalize_extraction',
    kind: 'write',
    description:
      "Merge your groups' results and write them to the graph (the server's own finalisation and commit); waits for the commit unless wait is false.",
    input: Type.Object({
      source_id: SourceId,
      skip_remaining: Type.Boolean({
        default: false,
        description: 'true: leave out groups not done instead of refusing',
      }),
      wait: Type.Boolean({ default: true }),
      timeout_seconds: Type.Integer({ minimum: 1, maximum: 600, default: 120 }),
    }),
    async run({ source_id, skip_remaining, wait, timeout_seconds }, context) {
      const job = await (await agentExtraction(context)).finalize(source_id, skip_remaining);
      const sources = await context.scope.service(sourcesModule);
      const deadline = Date.now() + timeout_seconds * 1000;
      while (wait && Date.now() < deadline && !finished.includes((await sources.find(source_id))?.status ?? 'error')) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return { job_id: job.id, ...(await sourceProgress(context.scope, source_id)) };
    },
  }),
];
