import type { Db } from '../../storage/index.ts';
import type { RecordedCall } from './recorder.ts';

/**
 * The prompts of a job's attempts, stored once: the domain's instructions, the system prompt and the
 * output format are the same for every group of a run, and only the group's sentences (and, in the
 * relationship pass, its entity list) differ. A prompt is cut into its sections (the blocks it joins
 * with a blank line); the job's prompt record (`extraction_prompts`, migration 0023) keeps the sections
 * of the job's first recorded attempt, and each attempt stores its calls with every section as a
 * reference: a section of the record by its index, or one of the attempt's own texts (the sentences,
 * sent in both passes, are stored once per attempt). Joining the references gives the prompts back
 * exactly as they were sent.
 */

const separator = '\n\n';

/** A section: ≥ 0 is the job record's section of that index, < 0 the attempt's text at `-ref - 1`. */
type SectionRef = number;

/** A recorded call as stored: its prompts as section references. */
interface StoredCall extends Omit<RecordedCall, 'system' | 'user'> {
  system: readonly SectionRef[];
  user: readonly SectionRef[];
}

/** The `calls` column of an attempt: its calls and the sections of them the job's record lacks. */
interface StoredCalls {
  texts: string[];
  calls: StoredCall[];
}

/** A job's prompt record as stored (migration 0023): `sections` is a JSON array of strings. */
export interface PromptRow {
  job_id: string;
  sections: string;
  created_at: string;
}

export interface PromptRecord {
  sections: readonly string[];
  /** Section text → its index in `sections`. */
  index: ReadonlyMap<string, number>;
  /**
   * Whole prompts made only of the record's sections → their references. Every group of a job sends the
   * same system prompt: one lookup of it replaces splitting it and looking up each of its long sections.
   */
  whole: Map<string, readonly SectionRef[]>;
}

/** Whole prompts a record remembers; a job sends a handful (one system prompt per pass). */
const wholeKept = 16;

const recordOf = (sections: readonly string[]): PromptRecord => ({
  sections,
  index: new Map(sections.map((section, position) => [section, position])),
  whole: new Map(),
});

/** The distinct sections of a set of calls' prompts, in the order they first appear. */
function sectionsOf(calls: readonly RecordedCall[]): string[] {
  const seen = new Set<string>();
  for (const call of calls) for (const section of [call.system, call.user].flatMap(split)) seen.add(section);
  return [...seen];
}

const split = (prompt: string) => prompt.split(separator);

/** The calls as stored against the job's record. */
export function encodeCalls(calls: readonly RecordedCall[], record: PromptRecord): string {
  const texts: string[] = [];
  const own = new Map<string, number>();
  const refer = (prompt: string): readonly SectionRef[] => {
    const known = record.whole.get(prompt);
    if (known) return known;
    const refs = split(prompt).map((section) => {
      const shared = record.index.get(section);
      if (shared !== undefined) return shared;
      let position = own.get(section);
      if (position === undefined) {
        position = texts.push(section) - 1;
        own.set(section, position);
      }
      return -position - 1;
    });
    if (record.whole.size < wholeKept && refs.every((ref) => ref >= 0)) record.whole.set(prompt, refs);
    return refs;
  };
  const stored: StoredCalls = {
    texts,
    calls: calls.map(({ system, user, ...rest }) => ({ ...rest, system: refer(system), user: refer(user) })),
  };
  return JSON.stringify(stored);
}

/**
 * The calls of an attempt with their prompts whole. `calls` is the column as stored: the section
 * references of today, or an array of whole calls as attempts recorded before migration 0023 hold them.
 */
export function decodeCalls(calls: string | null, sections: readonly string[] | undefined): RecordedCall[] {
  if (!calls) return [];
  const stored = JSON.parse(calls) as StoredCalls | RecordedCall[];
  if (Array.isArray(stored)) return stored;
  const text = (ref: SectionRef) => (ref >= 0 ? (sections?.[ref] ?? '') : stored.texts[-ref - 1]);
  const join = (refs: readonly SectionRef[]) => refs.map(text).join(separator);
  return stored.calls.map(({ system, user, ...rest }) => ({ ...rest, system: join(system), user: join(user) }));
}

export async function promptSections(db: Db, jobId: string): Promise<string[] | undefined> {
  const row = (await db('extraction_prompts').where({ job_id: jobId }).first('sections')) as
    { sections: string } | undefined;
  return row ? (JSON.parse(row.sections) as string[]) : undefined;
}

/** Jobs whose record this process read back committed; a job's record never changes once written. */
const known = new Map<string, PromptRecord>();
const knownKept = 64;

/**
 * The job's prompt record, written from these calls when the job has none yet (inside the caller's
 * transaction). Only a record read back is remembered: one this transaction wrote may still be rolled
 * back, and a concurrent writer's may have won the insert.
 */
export async function jobPromptRecord(trx: Db, jobId: string, calls: readonly RecordedCall[]): Promise<PromptRecord> {
  if (!calls.length) return recordOf([]);
  const cached = known.get(jobId);
  if (cached) return cached;
  const stored = await promptSections(trx, jobId);
  if (stored) {
    const record = recordOf(stored);
    if (known.size >= knownKept) known.delete(known.keys().next().value!);
    known.set(jobId, record);
    return record;
  }
  const sections = sectionsOf(calls);
  const row: PromptRow = { job_id: jobId, sections: JSON.stringify(sections), created_at: new Date().toISOString() };
  await trx('extraction_prompts').insert(row).onConflict('job_id').ignore();
  return recordOf((await promptSections(trx, jobId)) ?? sections);
}
