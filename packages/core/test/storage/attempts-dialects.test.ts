import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '@rhizome/contracts/settings';
import { ExtractionHistory } from '../../src/extraction/attempts/history.ts';
import { AttemptRecorder, type RecordedCall } from '../../src/extraction/attempts/recorder.ts';
import { groupAttempts, insertAttempt } from '../../src/extraction/attempts/store.ts';
import { entityPrompt, relationshipPrompt, SYSTEM_PROMPT } from '../../src/extraction/harvest/prompts.ts';
import { splitSentences } from '../../src/extraction/harvest/sentences.ts';
import { getGroup, insertJob, newJob, type JobRow } from '../../src/extraction/jobs.ts';
import { resolveExtractionOptions } from '../../src/extraction/options.ts';
import type { ExtractionPlan } from '../../src/extraction/plan.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';
import { getSource } from '../../src/sources/repo.ts';
import type { Db } from '../../src/storage/index.ts';
import { dialectDatabases, dialects } from '../../../../tests/support/dialects.ts';

const at = '2026-01-01T00:00:00.000Z';
const biographical = builtinDomains().find((domain) => domain.name === 'biographical')!;
const texts = [
  'Marie Curie was born in Warsaw in 1867. She studied physics in Paris.',
  'Niels Bohr was born in Copenhagen in 1885. He studied at the University of Copenhagen.',
];

const plan: ExtractionPlan = {
  groups: texts.map((_, index) => ({ groupIndex: index, firstChunkIndex: index, lastChunkIndex: index })),
  chunksKept: texts.length,
  chunksTotal: texts.length,
  estimate: { inputTokens: 10, outputTokens: 5, costUsd: null },
} as ExtractionPlan;

/** The two calls a group's harvest makes, with the prompts the harvest builds for its text. */
function harvestCalls(text: string, answer: string): RecordedCall[] {
  const sentences = splitSentences([{ id: 'c', index: 0, content: text, pageNumber: null, section: null }]);
  const call = (pass: RecordedCall['pass'], user: string): RecordedCall => ({
    pass,
    system: SYSTEM_PROMPT,
    user,
    output: `${answer} (${pass})`,
    finishReason: 'stop',
    model: 'qwen3:8b',
    inputTokens: 900,
    outputTokens: 60,
    durationMs: 5,
    trippedBy: null,
  });
  const entities = [
    { name: 'Marie Curie', type: 'Person', aliases: ['Madame Curie'] },
    { name: 'Warsaw', type: 'Place', aliases: [] },
  ];
  return [
    call('entities', entityPrompt({ sentences, domain: biographical })),
    call('relationships', relationshipPrompt({ sentences, domain: biographical, entities })),
  ];
}

/**
 * An attempt's prompts are stored once per job and referred to by its attempts, which are numbered in
 * the statement that writes them: what the history shows is what was sent, on both dialects.
 */
describe.each(dialects)('extraction attempts on %s', (dialect) => {
  const databases = dialectDatabases(dialect);
  let db: Db;
  let job: JobRow;
  const history = () => new ExtractionHistory({ db, database: 'attempts', contextWindow: () => 8192 });

  const record = async (groupIndex: number, calls: RecordedCall[], recorder = new AttemptRecorder()) => {
    for (const call of calls) recorder.call(call);
    recorder.drop('evidence', 'entity', 'Atlantis', 'no sentence mentions it');
    const group = (await getGroup(db, job.id, groupIndex))!;
    await db.transaction((trx) =>
      insertAttempt(trx, { job, group, taskId: `task_${groupIndex}`, provider: 'localllm', recorder, startedAt: 0 }),
    );
  };
  const detail = async (groupIndex: number, attemptNumber: number) => {
    const attempts = await groupAttempts(db, 's1', groupIndex);
    const attempt = attempts.find((row) => row.attempt_number === attemptNumber)!;
    return history().attempt('s1', groupIndex, attempt.id);
  };

  beforeAll(async () => {
    db = await databases.open('attempts');
    await db('sources').insert({ id: 's1', title: 's1', status: 'extracting', created_at: at, updated_at: at });
    const options = resolveExtractionOptions((await getSource(db, 's1'))!, {}, biographical, defaultSettings());
    job = newJob('s1', 'biographical', options, plan, 'running', at);
    await db.transaction((trx) => insertJob(trx, job, plan));
  }, 120_000);
  afterAll(() => databases.close());

  it('shows each call with its prompts as sent, numbering a group’s attempts in order', async () => {
    const first = harvestCalls(texts[0], 'first');
    const second = harvestCalls(texts[1], 'second');
    const again = harvestCalls(texts[1], 'again');
    await record(0, first);
    await record(1, second);
    await record(1, again);

    expect((await groupAttempts(db, 's1', 1)).map((row) => row.attempt_number)).toEqual([2, 1]);
    for (const [groupIndex, attemptNumber, calls] of [
      [0, 1, first],
      [1, 1, second],
      [1, 2, again],
    ] as const) {
      const shown = await detail(groupIndex, attemptNumber);
      expect(shown.attempt_number).toBe(attemptNumber);
      expect(shown.calls.map((call) => [call.pass, call.system_prompt, call.user_prompt, call.raw_output])).toEqual(
        calls.map((call) => [call.pass, call.system, call.user, call.output]),
      );
      expect(shown.dropped).toEqual([
        { stage: 'evidence', kind: 'entity', item: 'Atlantis', reason: 'no sentence mentions it' },
      ]);
    }
  });

  it('keeps the domain’s instructions once per job: a later attempt stores only its own text', async () => {
    const rows = (await db('extraction_attempts')
      .where({ job_id: job.id })
      .orderBy('group_index')
      .orderBy('attempt_number')
      .select('calls')) as { calls: string }[];
    const records = (await db('extraction_prompts').where({ job_id: job.id }).select('sections')) as {
      sections: string;
    }[];
    expect(records).toHaveLength(1);
    const guidance = biographical.entity_guidance;
    expect(records[0].sections).toContain(JSON.stringify(guidance).slice(1, -1));
    const later = rows[1].calls;
    expect(later).not.toContain('Output format, one record per line');
    expect(later).not.toContain(JSON.stringify(guidance).slice(1, -1));
    expect(later).toContain('Niels Bohr was born in Copenhagen');
    // The group's sentences go to both passes and are stored once.
    expect(later.split('Niels Bohr was born in Copenhagen').length - 1).toBe(1);
    const whole = harvestCalls(texts[1], 'second').reduce(
      (sum, call) => sum + call.system.length + call.user.length,
      0,
    );
    expect(later.length).toBeLessThan(whole / 3);
  });

  it('shows attempts recorded before the prompt records with their prompts whole', async () => {
    const calls = harvestCalls(texts[0], 'old');
    await db('extraction_attempts').insert({
      id: 'att_old',
      source_id: 's1',
      job_id: job.id,
      group_index: 0,
      attempt_number: 9,
      first_chunk_index: 0,
      last_chunk_index: 0,
      status: 'completed',
      calls: JSON.stringify(calls),
      parsed: JSON.stringify({ entities: [], relationships: [] }),
      dropped: '[]',
      started_at: at,
      completed_at: at,
    });
    const shown = await history().attempt('s1', 0, 'att_old');
    expect(shown.calls.map((call) => call.user_prompt)).toEqual(calls.map((call) => call.user));
  });

  it('writes nothing when attempts are not kept, and the prompt record goes with its job', async () => {
    const before = await groupAttempts(db, 's1', 0);
    await record(0, harvestCalls(texts[0], 'unkept'), new AttemptRecorder(false));
    expect(await groupAttempts(db, 's1', 0)).toEqual(before);

    await db('extraction_jobs').where({ id: job.id }).delete();
    expect(await db('extraction_prompts').where({ job_id: job.id }).select('job_id')).toEqual([]);
  });
});
