import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '@rhizome/contracts/settings';
import { harvestGroup, type HarvestInput } from '../../src/extraction/harvest/index.ts';
import type { GroupChunk } from '../../src/extraction/types.ts';
import { LlmError } from '../../src/providers/llm/errors.ts';
import { LlmService } from '../../src/providers/llm/service.ts';
import type { LlmCallRecord } from '../../src/providers/metrics.ts';
import { createLocalLlmChatAdapter } from '../../src/providers/localllm/chat-adapter.ts';
import { LocalLlmPool } from '../../src/providers/localllm/pool.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';
import { filteringPreset } from '../../src/extraction/content-filter.ts';
import { startFakeOllama, type FakeOllama } from '../../../../tests/support/fakes/ollama.ts';
import { sleep } from '../../../../tests/support/wait.ts';

/**
 * The harvest against a real HTTP Ollama fake (the localllm adapter over the wire): each test scripts
 * the answers of the calls the two passes make.
 */

const biographical = builtinDomains().find((domain) => domain.name === 'biographical')!;

const text = [
  'Marie Curie was born in Warsaw in 1867.',
  'She moved to Paris in 1891 to study physics at the University of Paris.',
  'In 1895 she married Pierre Curie, a physicist who taught at the same university.',
  'Together they discovered polonium and radium.',
].join(' ');

const chunks: GroupChunk[] = [
  { id: 'chunk-a', index: 0, content: text.slice(0, text.indexOf(' In 1895')), pageNumber: 1, section: null },
  { id: 'chunk-b', index: 1, content: text.slice(text.indexOf('In 1895')), pageNumber: 1, section: null },
];

const entityAnswer = [
  'E|Marie Curie|Person|Madame Curie;Maria Skłodowska|0.95|S1-S3|Physicist and chemist born in Warsaw in 1867 who moved to Paris in 1891 and married the physicist Pierre Curie in 1895.',
  'P|0|birth_date|1867',
  'P|0|occupation|physicist',
  'E|Warsaw|Place||0.9|S1|City in which Marie Curie was born in 1867, before she moved to Paris to study physics at the University of Paris.',
  'P|1|country|Poland',
  'E|University of Paris|School|Sorbonne|0.85|S2-S3|University in Paris where Marie Curie studied physics from 1891 and where Pierre Curie taught as a physicist.',
  'E|Pierre Curie|Person|P. Curie|0.9|S3-S4|Physicist who taught at the University of Paris, married Marie Curie in 1895 and discovered polonium and radium with her.',
].join('\n');

const relationshipAnswer = [
  'R|0|1|born_in|0.95|S1|Sentence S1 states plainly that Marie Curie was born in Warsaw in the year 1867.',
  'R|0|3|married_to|0.9|S3|Sentence S3 says that in 1895 she (Marie Curie) married Pierre Curie, a physicist.',
  'R|0|2|Educated At|0.8|S2|Sentence S2 says Marie Curie moved to Paris in 1891 to study physics at the University of Paris.',
  'R|3|2|taught_at|0.7|S3|Sentence S3 says Pierre Curie taught at the same university, the University of Paris.',
].join('\n');

let fake: FakeOllama;
let records: LlmCallRecord[];
let llm: LlmService;

beforeEach(async () => {
  fake = await startFakeOllama({ models: ['llama3.2:latest'] });
  records = [];
  const settings: Settings = defaultSettings();
  settings.llm = {
    ...settings.llm,
    chat_provider: 'localllm',
    localllm_instances: [{ id: 'default', name: 'Fake', base_url: fake.url, enabled: true, healthy: false }],
    localllm_extraction_model: 'llama3.2',
  };
  settings.retries.llm_max_retries = 1;
  settings.backoff.retry_delays = [0.01];
  const pool = new LocalLlmPool({ instances: settings.llm.localllm_instances, strategy: 'round_robin' });
  const adapter = createLocalLlmChatAdapter(pool, settings.llm);
  llm = new LlmService({ settings: () => settings, adapter: () => adapter, record: (call) => records.push(call) });
});

afterEach(async () => {
  await fake.close();
});

function input(overrides: Partial<HarvestInput> = {}): HarvestInput {
  return {
    chunks,
    domain: biographical,
    preset: filteringPreset('balanced'),
    strictEdgeTypes: false,
    llm,
    signal: new AbortController().signal,
    context: { database: 'main', sourceId: 'source-1', taskId: 'task-1' },
    ...overrides,
  };
}

const chatBodies = () =>
  fake.requests
    .filter((request) => request.path === '/api/chat')
    .map(
      (request) =>
        request.body as {
          messages: { role: string; content: string }[];
          options: { temperature: number };
          think?: boolean;
        },
    );

describe('harvest against a fake Ollama', () => {
  it('turns a clean two-pass answer into entities with evidence, properties and relationships', async () => {
    fake.scriptChat(entityAnswer, relationshipAnswer);
    const harvest = await harvestGroup(input());

    expect(harvest.entities.map((entity) => [entity.name, entity.type])).toEqual([
      ['Marie Curie', 'Person'],
      ['Warsaw', 'Place'],
      ['University of Paris', 'School'],
      ['Pierre Curie', 'Person'],
    ]);
    const [marie, warsaw] = harvest.entities;
    expect(marie.aliases).toEqual(['Madame Curie', 'Maria Skłodowska']);
    expect(marie.properties).toEqual({ birth_date: '1867', occupation: 'physicist' });
    expect(warsaw.properties).toEqual({ country: 'Poland' });
    expect(marie.evidence.map((item) => [item.chunkId, item.sentence])).toEqual([
      ['chunk-a', 'Marie Curie was born in Warsaw in 1867.'],
      ['chunk-a', 'She moved to Paris in 1891 to study physics at the University of Paris.'],
      ['chunk-b', 'In 1895 she married Pierre Curie, a physicist who taught at the same university.'],
    ]);
    for (const item of harvest.entities.flatMap((entity) => entity.evidence)) {
      expect(chunks.find((chunk) => chunk.id === item.chunkId)!.content.slice(item.start, item.end)).toBe(
        item.sentence,
      );
    }

    expect(harvest.relationships.map((r) => [r.sourceIndex, r.targetIndex, r.type, r.typeMatch])).toEqual([
      [0, 1, 'born_in', 'exact'],
      [0, 3, 'married_to', 'exact'],
      [0, 2, 'educated_at', 'exact'],
      [3, 2, 'taught_at', 'none'],
    ]);
    expect(harvest.relationships[1].evidence.map((item) => item.sentence)).toEqual([
      'In 1895 she married Pierre Curie, a physicist who taught at the same university.',
    ]);
    expect(harvest.relationships[0].justification).toMatch(/^Sentence S1 states/);

    expect(harvest.stats).toMatchObject({
      llmCalls: 2,
      linesParsed: 11,
      linesRejected: 0,
      guardsTripped: [],
      emptyAnswers: 0,
      relationshipTypesUnmatched: 1,
    });
    expect(harvest.stats.inputTokens).toBeGreaterThan(100);
    expect(harvest.stats.outputTokens).toBeGreaterThan(50);

    const [pass1, pass2] = chatBodies();
    expect(pass1.messages[0]).toMatchObject({ role: 'system' });
    expect(pass1.messages[1].content).toContain('S4 Together they discovered polonium and radium.');
    expect(pass1.messages[1].content).toContain('E|name|type|aliases|confidence|sent_ref|description');
    expect(pass1.options.temperature).toBe(0.1);
    expect(pass1.think).toBe(false);
    expect(pass2.messages[1].content).toContain(
      '<entity_list>\n0: Marie Curie (Person) [aliases: Madame Curie; Maria Skłodowska]\n1: Warsaw (Place)',
    );
    expect(pass2.messages[1].content).toContain('R|source_index|target_index|type|confidence|sent_ref|justification');

    expect(
      records.map((record) => [record.operation, record.sourceId, record.taskId, record.database, record.success]),
    ).toEqual([
      ['extraction', 'source-1', 'task-1', 'main', true],
      ['extraction', 'source-1', 'task-1', 'main', true],
    ]);
  });

  it('counts and skips malformed lines, reading the ones models usually get slightly wrong', async () => {
    fake.scriptChat(
      [
        'Here are the entities I found:',
        '```',
        '- `E | Marie Curie | Person | Madame Curie | 95% | S1, S3 | Physicist and chemist born in Warsaw who married Pierre Curie in Paris in 1895. |`',
        'E|Warsaw',
        'E|name|type|aliases|confidence|sent_ref|description',
        'P|zero|occupation|physicist',
        'P|0|occupation|',
        'E|Pierre Curie|Person|0.9|S3|Physicist who taught at the University of Paris and married Marie Curie in 1895.',
        '```',
      ].join('\n'),
      'R|0|1|married_to|high|S3|Sentence S3 says that Marie Curie married Pierre Curie in the year 1895.\nNo more relationships.',
    );
    const harvest = await harvestGroup(input());
    expect(harvest.entities.map((entity) => [entity.name, entity.confidence])).toEqual([
      ['Marie Curie', 0.95],
      ['Pierre Curie', 0.9],
    ]);
    expect(harvest.relationships).toMatchObject([
      { sourceIndex: 0, targetIndex: 1, type: 'married_to', confidence: 0.9 },
    ]);
    expect(harvest.stats.rejectedByReason).toEqual({
      not_a_record: 2,
      missing_field: 2,
      template_echo: 1,
      bad_index: 1,
    });
    expect(harvest.stats).toMatchObject({ linesParsed: 3, linesRejected: 6 });
  });

  it('cuts a looping answer at the guard, cancels the stream and keeps what came before', async () => {
    const lines = [
      'E|Marie Curie|Person|Madame Curie|0.95|S1-S3|Physicist and chemist born in Warsaw in 1867 who married the physicist Pierre Curie in 1895.',
      'E|Pierre Curie|Person||0.9|S3|Physicist who taught at the University of Paris and married Marie Curie in 1895, working with her.',
      'P|0|birth_date|1867',
      ...Array.from({ length: 60 }, () => 'P|1|occupation|physicist'),
    ];
    fake.scriptChat(
      { deltas: lines.map((line) => `${line}\n`), intervalMs: 20 },
      'R|0|1|married_to|0.9|S3|Sentence S3 says Marie Curie married Pierre Curie, a physicist, in 1895.',
    );
    const harvest = await harvestGroup(input());

    expect(harvest.stats.guardsTripped).toEqual(['entities: same (entity, property) 5 times']);
    expect(harvest.entities.map((entity) => entity.name)).toEqual(['Marie Curie', 'Pierre Curie']);
    expect(harvest.entities[0].properties).toEqual({ birth_date: '1867' });
    expect(harvest.entities[1].properties).toEqual({ occupation: 'physicist' });
    expect(harvest.relationships).toHaveLength(1);
    expect(harvest.stats.rejectedByReason).toEqual({ loop_guard: 1 });

    // The upstream request was cancelled: the fake stopped writing well before the end and writes no more.
    const delivery = fake.scriptedDeliveries[0];
    const deliveredThen = delivery.delivered;
    expect(deliveredThen).toBeLessThan(40);
    await sleep(150);
    expect(delivery.delivered).toBe(deliveredThen);
  });

  it('asks once more after an empty answer when the group has 200+ characters', async () => {
    fake.scriptChat('', entityAnswer, relationshipAnswer);
    const harvest = await harvestGroup(input());
    expect(harvest.stats).toMatchObject({ llmCalls: 3, emptyAnswers: 1 });
    expect(harvest.entities).toHaveLength(4);
    expect(harvest.relationships).toHaveLength(4);
  });

  it('does not ask again for a short group, and skips pass 2 with fewer than two entities', async () => {
    fake.scriptChat('');
    const short = [{ id: 'c', index: 0, content: 'Marie Curie was born in Warsaw.', pageNumber: null, section: null }];
    const empty = await harvestGroup(input({ chunks: short }));
    expect(empty).toEqual({
      entities: [],
      relationships: [],
      stats: expect.objectContaining({ llmCalls: 1, emptyAnswers: 1 }),
    });
    expect(chatBodies()).toHaveLength(1);

    fake.scriptChat(
      'E|Marie Curie|Person||0.9|S1|Physicist born in Warsaw, the subject of this short and very simple test passage.',
    );
    const single = await harvestGroup(input({ chunks: short }));
    expect(single.entities).toHaveLength(1);
    expect(single.stats.llmCalls).toBe(1);
    expect(chatBodies()).toHaveLength(2);
  });

  it('rejects out-of-range indices and self-links, and drops unmatched types when edge types are strict', async () => {
    fake.scriptChat(
      entityAnswer,
      [
        'R|0|1|born_in|0.95|S1|Sentence S1 states plainly that Marie Curie was born in Warsaw in 1867.',
        'R|0|7|married_to|0.9|S3|An index beyond the list of four entities the prompt gave the model.',
        'R|2|2|part_of|0.5|S2|A self-link that the prompt forbids and the parser turns down outright.',
        'R|3|2|taught_at|0.7|S3|Sentence S3 says Pierre Curie taught at the same university as Marie Curie.',
        'R|0|3|married|0.9|S9|Sentence S3 says that in 1895 Marie Curie married Pierre Curie, a physicist.',
      ].join('\n'),
    );
    const harvest = await harvestGroup(input({ strictEdgeTypes: true }));
    expect(harvest.relationships.map((r) => [r.sourceIndex, r.targetIndex, r.type, r.typeMatch])).toEqual([
      [0, 1, 'born_in', 'exact'],
      [0, 3, 'married_to', 'substring'],
    ]);
    // S9 does not exist, and no sentence names both ends ("she" is not a name): no evidence.
    expect(harvest.relationships[1].evidence).toEqual([]);
    expect(harvest.stats.rejectedByReason).toEqual({ out_of_range: 1, self_link: 1 });
    expect(harvest.stats).toMatchObject({ relationshipTypesUnmatched: 1, relationshipsDroppedStrictType: 1 });
  });

  it('propagates a cancellation of the task as an error and cancels the call', async () => {
    fake.setDelay(5000);
    const controller = new AbortController();
    const pending = harvestGroup(input({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    const error = await pending.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe('cancelled');
    await expect(harvestGroup(input({ signal: controller.signal }))).rejects.toThrow();
  });
});
