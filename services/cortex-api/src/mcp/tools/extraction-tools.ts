import { BadInput } from '@rhizome/contracts/errors';
import { Type } from '@sinclair/typebox';
import { agentExtractionFor, submitWholeGroup, type AgentExtraction } from '@rhizome/core/extraction';
import { sourcesModule } from '@rhizome/core/sources';
import type { ToolContext } from '../tool.ts';
import { readOnlyRefusal, sessionMode, tool } from '../tool.ts';
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
    kind: 'read',
    description:
      "Start (or resume) extracting a source yourself: returns its groups, each with the prompt the server's extractor would send; answer each with submit_chunk_extraction. Starting needs write mode; a run under way can be read in read mode.",
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
      const writable = sessionMode(context.platform, context.session) === 'write';
      if (writable) await service.start(source_id, { domain, analysis_depth, force });
      const { job, tasks } = await service.tasks(source_id, { offset, limit }).catch((error: unknown) => {
        throw writable ? error : readOnlyRefusal('get_extraction_tasks (starting an agent extraction)');
      });
      const progress = await service.progress(source_id);
      return {
        source_id,
        job_id: job.id,
        status: progress.status,
        domain: job.domain,
        extraction_depth: (JSON.parse(job.options) as { depth: string }).depth,
        total_groups: job.total_groups,
        total_chunks: job.total_groups,
        chunk_indices: progress.missing_indices,
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
    name: 'get_extraction_progress',
    kind: 'read',
    description:
      "Which groups of a source's agent extraction are submitted and which are left; ready_to_finalize once none is.",
    input: Type.Object({ source_id: SourceId }),
    async run({ source_id }, context) {
      return { success: true, ...(await (await agentExtraction(context)).progress(source_id)) };
    },
  }),
  tool({
    name: 'get_extraction_chunks',
    kind: 'read',
    description:
      "The text of groups of a source's agent extraction with their numbered sentences (S1 …), for writing your own prompt; sent_ref fields cite these numbers.",
    input: Type.Object({
      source_id: SourceId,
      chunk_indices: Type.Array(Type.Integer({ minimum: 0 }), {
        minItems: 1,
        maxItems: 50,
        description: 'group indices, as get_extraction_tasks and get_extraction_progress list them',
      }),
    }),
    async run({ source_id, chunk_indices }, context) {
      return { source_id, chunks: await (await agentExtraction(context)).groupTexts(source_id, chunk_indices) };
    },
  }),
  tool({
    name: 'submit_chunk_extraction',
    kind: 'write',
    description:
      "Submit your answer to one group: either its E and P lines and its R lines at once (chunk_group_index, entities_text, relationships_text; R lines number entities in the order of your E lines), or one pass at a time (group_index, pass, lines). Checked exactly like the server model's answer.",
    input: Type.Object({
      source_id: SourceId,
      chunk_group_index: Type.Optional(Type.Integer({ minimum: 0, description: 'the group answered whole' })),
      entities_text: Type.Optional(Type.String({ maxLength: 10_000_000, description: 'E and P lines, one per line' })),
      relationships_text: Type.Optional(
        Type.String({ maxLength: 10_000_000, description: 'R lines, one per line; may be empty' }),
      ),
      group_index: Type.Optional(Type.Integer({ minimum: 0, description: 'the group answered one pass at a time' })),
      pass: Type.Optional(Type.Union([Type.Literal('entities'), Type.Literal('relationships')])),
      lines: Type.Optional(
        Type.Array(Type.String({ maxLength: 20_000 }), {
          maxItems: 5000,
          description: 'one record per item, e.g. "E|Ada Lovelace|Person||0.9|S1|…"',
        }),
      ),
    }),
    async run(args, context) {
      const service = await agentExtraction(context);
      if (args.chunk_group_index !== undefined) {
        if (args.entities_text === undefined)
          throw BadInput.field('entities_text is required with chunk_group_index', 'entities_text');
        return submitWholeGroup(
          service,
          args.source_id,
          args.chunk_group_index,
          args.entities_text,
          args.relationships_text ?? '',
        );
      }
      if (args.group_index === undefined || args.pass === undefined || args.lines === undefined)
        throw BadInput.field(
          'Send chunk_group_index with entities_text and relationships_text, or group_index with pass and lines',
          'chunk_group_index',
        );
      return service.submit(args.source_id, args.group_index, args.pass, args.lines);
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
