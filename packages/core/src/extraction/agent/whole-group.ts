import type { AgentExtraction, SubmitOutcome } from './service.ts';

/** What answering a whole group in one call did. */
export interface WholeGroupOutcome {
  success: true;
  chunk_group_index: number;
  chunks_submitted: number;
  chunks_total: number;
  ready_to_finalize: boolean;
  entities: SubmitOutcome['entities'];
  relationships: number;
  lines_rejected: number;
  rejected_by_reason: Record<string, number>;
  /** R lines left out because an entity they name was not kept. */
  relationships_left_out: number;
}

const nonBlankLines = (text: string) => text.split(/\r?\n/).filter((line) => line.trim() !== '');
const nameKey = (name: string) => name.trim().toLowerCase();

/**
 * A group answered in one call, its E and P lines and its R lines together, the R lines numbering the
 * entities in the order of the E lines (as P lines do). The entities pass runs first; the R lines are then
 * renumbered onto the entities it kept, and those naming an entity it dropped are left out.
 */
export async function submitWholeGroup(
  service: AgentExtraction,
  sourceId: string,
  groupIndex: number,
  entitiesText: string,
  relationshipsText: string,
): Promise<WholeGroupOutcome> {
  const entityLines = nonBlankLines(entitiesText);
  const entities = await service.submit(sourceId, groupIndex, 'entities', entityLines);
  const kept = new Map<string, number>();
  for (const entity of entities.entities)
    for (const name of [entity.name, ...entity.aliases])
      if (!kept.has(nameKey(name))) kept.set(nameKey(name), entity.index);
  const submittedNames = entityLines
    .filter((line) => line.startsWith('E|'))
    .map((line) => nameKey(line.split('|')[1] ?? ''));

  let relationships: SubmitOutcome | null = null;
  let leftOut = 0;
  const relationLines = nonBlankLines(relationshipsText);
  if (entities.status === 'running') {
    const renumbered: string[] = [];
    for (const line of relationLines) {
      const fields = line.split('|');
      if (fields[0] !== 'R') {
        renumbered.push(line);
        continue;
      }
      const [from, to] = [fields[1], fields[2]].map((field) => kept.get(submittedNames[Number(field)] ?? ''));
      if (from === undefined || to === undefined) leftOut += 1;
      else renumbered.push(['R', String(from), String(to), ...fields.slice(3)].join('|'));
    }
    relationships = await service.submit(sourceId, groupIndex, 'relationships', renumbered);
  } else leftOut = relationLines.length;

  const progress = await service.progress(sourceId);
  const rejected = { ...entities.rejected_by_reason };
  for (const [reason, count] of Object.entries(relationships?.rejected_by_reason ?? {}))
    rejected[reason] = (rejected[reason] ?? 0) + count;
  return {
    success: true,
    chunk_group_index: groupIndex,
    chunks_submitted: progress.submitted_indices.length,
    chunks_total: progress.total_chunks,
    ready_to_finalize: progress.ready_to_finalize,
    entities: entities.entities,
    relationships: relationships?.relationships ?? 0,
    lines_rejected: entities.lines_rejected + (relationships?.lines_rejected ?? 0),
    rejected_by_reason: rejected,
    relationships_left_out: leftOut,
  };
}
