import { beforeAll, describe, expect, it } from 'vitest';
import { BuiltinLlmAdapter } from '../../src/providers/llm/builtin/adapter.ts';
import { NOTHING_RELEVANT } from '../../src/providers/llm/builtin/answers.ts';
import { LlmError } from '../../src/providers/llm/errors.ts';
import { parseLines, type EntityRecord, type RelationshipRecord } from '../../src/providers/llm/line-grammar.ts';
import type { AdapterRequest, ChatStreamEvent } from '../../src/providers/llm/port.ts';

const sample = [
  'Marie Curie was born in Warsaw.',
  'She worked at the University of Paris with Pierre Curie.',
  'In 1903 the Nobel Foundation awarded Marie Curie and Pierre Curie the Nobel Prize in Physics.',
  'The University of Paris is located in Paris.',
];

let loadMs: number | null = null;
const adapter = new BuiltinLlmAdapter({ onNlpLoaded: (ms) => (loadMs = ms) });

function request(overrides: Partial<AdapterRequest>): AdapterRequest {
  return {
    operation: 'extraction',
    messages: [],
    model: 'builtin',
    temperature: 0.1,
    maxTokens: 4096,
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function run(
  overrides: Partial<AdapterRequest>,
): Promise<{ deltas: string[]; text: string; finish: Extract<ChatStreamEvent, { type: 'finish' }> }> {
  const events: ChatStreamEvent[] = [];
  for await (const event of adapter.stream(request(overrides))) events.push(event);
  const finish = events.at(-1);
  if (finish?.type !== 'finish') throw new Error('the stream did not end with a finish event');
  const deltas = events.flatMap((event) => (event.type === 'text' ? [event.delta] : []));
  expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
  return { deltas, text: deltas.join(''), finish };
}

/** Everything the adapter writes must parse: the pipeline reads it with the same parser. */
function parseAll(text: string): (EntityRecord | RelationshipRecord)[] {
  const parsed = parseLines(text);
  expect(parsed.filter((line) => !line.ok)).toEqual([]);
  return parsed.flatMap((line) => (line.ok && line.record.kind !== 'property' ? [line.record] : []));
}

async function entities(sentences: string[], nodeTypes: string[]): Promise<EntityRecord[]> {
  const { text } = await run({ extraction: { pass: 'entities', sentences, nodeTypes } });
  return parseAll(text).filter((record): record is EntityRecord => record.kind === 'entity');
}

async function relationships(
  sentences: string[],
  found: EntityRecord[],
  edgeTypes: string[],
): Promise<RelationshipRecord[]> {
  const listed = found.map(({ name, type, aliases }) => ({ name, type, aliases }));
  const { text } = await run({ extraction: { pass: 'relationships', sentences, entities: listed, edgeTypes } });
  return parseAll(text).filter((record): record is RelationshipRecord => record.kind === 'relationship');
}

beforeAll(async () => {
  await run({ operation: 'title', messages: [{ role: 'user', content: 'warm up' }] });
});

describe('builtin provider: entity pass', () => {
  const nodeTypes = ['Person', 'Location', 'Organization', 'Concept'];
  let found: EntityRecord[];
  beforeAll(async () => {
    found = await entities(sample, nodeTypes);
  });

  it('finds the named entities of the sample, typed by what compromise recognises', () => {
    expect(found.map(({ name, type, sentenceRefs }) => [name, type, sentenceRefs])).toEqual([
      ['Marie Curie', 'Person', [1, 3]],
      ['Warsaw', 'Location', [1]],
      ['University of Paris', 'Organization', [2, 4]],
      ['Pierre Curie', 'Person', [2, 3]],
      ['Nobel Foundation', 'Organization', [3]],
      // compromise does not type it; it stays generic, with the lower confidence of an untyped span. The
      // field an award is given in belongs to its name.
      ['Nobel Prize in Physics', 'Concept', [3]],
      ['Paris', 'Location', [4]],
    ]);
    const byName = new Map(found.map((entity) => [entity.name, entity]));
    expect(byName.get('Marie Curie')).toMatchObject({
      confidence: 0.95,
      aliases: [],
      description: 'Marie Curie was born in Warsaw.',
    });
    expect(byName.get('Warsaw')?.confidence).toBe(0.9);
    expect(byName.get('Nobel Prize in Physics')?.confidence).toBe(0.7);
  });

  it('writes no junk spans', () => {
    const names = found.map((entity) => entity.name);
    for (const junk of ['She', 'In', 'The', '1903', 'Curie', 'Nobel']) expect(names).not.toContain(junk);
  });

  it('makes a shorter mention an alias of the one name it abbreviates', async () => {
    const [curie, sorbonne] = await entities(
      ['Marie Curie studied in Paris.', "Later Curie's lab moved.", 'Curie taught at the Sorbonne.'],
      nodeTypes,
    );
    expect(curie).toMatchObject({ name: 'Marie Curie', aliases: ['Curie'], sentenceRefs: [1, 2, 3] });
    expect(sorbonne).toMatchObject({ name: 'Paris' });
  });

  it('drops a short mention that could be either of two names', async () => {
    const names = (await entities(['Marie Curie married Pierre Curie.', 'Curie won twice.'], nodeTypes)).map(
      (entity) => [entity.name, entity.aliases],
    );
    expect(names).toEqual([
      ['Marie Curie', []],
      ['Pierre Curie', []],
    ]);
  });

  it('maps kinds onto the domain node types, falling back to a generic type, then to Entity', async () => {
    const types = async (domainTypes: string[]) =>
      Object.fromEntries((await entities(sample.slice(0, 3), domainTypes)).map((entity) => [entity.name, entity.type]));
    expect(await types([])).toMatchObject({
      'Marie Curie': 'Person',
      Warsaw: 'Place',
      'Nobel Foundation': 'Organization',
      'Nobel Prize in Physics': 'Entity',
    });
    expect(await types(['PERSON', 'geographic_location', 'organisation'])).toMatchObject({
      'Marie Curie': 'PERSON',
      Warsaw: 'geographic_location',
      'Nobel Foundation': 'organisation',
      'Nobel Prize in Physics': 'Entity',
    });
    expect(await types(['Scientist', 'Thing'])).toMatchObject({
      'Marie Curie': 'Thing',
      Warsaw: 'Thing',
      'Nobel Prize in Physics': 'Thing',
    });
    expect(await types(['Scientist'])).toMatchObject({ 'Marie Curie': 'Entity' });
  });
});

describe('builtin provider: relationship pass', () => {
  let found: EntityRecord[];
  const index = (name: string) => found.findIndex((entity) => entity.name === name);
  const link = (relation: RelationshipRecord) =>
    `${found[relation.sourceIndex].name} -${relation.type}-> ${found[relation.targetIndex].name} ${relation.sentenceRefs.map((n) => `S${n}`).join(',')}`;
  beforeAll(async () => {
    found = await entities(sample, ['Person', 'Place', 'Organization']);
  });

  it('types links from cues and verbs, and links untyped only names a verb joins in one clause', async () => {
    const found2 = await relationships(sample, found, ['BORN_IN', 'WORKS_AT', 'LOCATED_IN', 'MARRIED_TO']);
    expect(found2.map(link)).toEqual([
      'Marie Curie -BORN_IN-> Warsaw S1',
      // "She" resolves to the person the previous sentence opened with.
      'Marie Curie -WORKS_AT-> University of Paris S2',
      // The next name of a list ("A and B") is linked as the first was.
      'Nobel Foundation -related_to-> Marie Curie S3',
      'Nobel Foundation -related_to-> Pierre Curie S3',
      // "Paris" inside "University of Paris" is not a second mention of Paris.
      'University of Paris -LOCATED_IN-> Paris S4',
    ]);
    const born = found2[0];
    expect(born).toMatchObject({ sourceIndex: index('Marie Curie'), targetIndex: index('Warsaw'), confidence: 0.8 });
    expect(born.justification.length).toBeGreaterThanOrEqual(50);
    expect(born.justification.startsWith(sample[0])).toBe(true);
    expect(found2[1].confidence).toBeCloseTo(0.65);
    for (const relation of found2) expect(relation.sourceIndex).not.toBe(relation.targetIndex);
  });

  it("uses the domain spelling of the type, a cue's own name when the domain has none, and related_to when nothing matches", async () => {
    const links = (await relationships(sample.slice(0, 2), found, ['works_for', 'RELATED_TO'])).map(link);
    expect(links).toEqual(['Marie Curie -born_in-> Warsaw S1', 'Marie Curie -works_for-> University of Paris S2']);
  });

  it('matches types by lemma, prefix and shared stem, and turns passive sentences around', async () => {
    const sentences = [
      'Apple was founded by Steve Jobs.',
      'Berlin lies on the Spree.',
      'Marie Curie married Pierre Curie.',
    ];
    const listed: EntityRecord[] = ['Apple', 'Steve Jobs', 'Berlin', 'Spree', 'Marie Curie', 'Pierre Curie'].map(
      (name) => ({
        kind: 'entity',
        name,
        type: 'Thing',
        aliases: [],
        confidence: 1,
        sentenceRefs: [],
        description: '',
      }),
    );
    const typed = async (edgeTypes: string[]) =>
      (await relationships(sentences, listed, edgeTypes)).map(
        (relation) => `${listed[relation.sourceIndex].name} ${relation.type} ${listed[relation.targetIndex].name}`,
      );
    expect(await typed(['FOUNDED_BY', 'LOCATED_IN', 'MARRIED_TO'])).toEqual([
      'Apple FOUNDED_BY Steve Jobs',
      'Berlin LOCATED_IN Spree',
      'Marie Curie MARRIED_TO Pierre Curie',
    ]);
    expect(await typed(['founder_of', 'spouse_of'])).toEqual([
      'Steve Jobs founder_of Apple',
      'Berlin related_to Spree',
      'Marie Curie spouse_of Pierre Curie',
    ]);
    expect(await typed(['FOUNDED'])).toContain('Steve Jobs FOUNDED Apple');
  });
});

describe('builtin provider: chat', () => {
  const passages = [
    { text: sample.join(' '), marker: '[1]' },
    { text: 'Paris is the capital of France. Warsaw is the capital of Poland.', marker: '[2]' },
  ];
  const sentencesOf = passages.flatMap((passage) =>
    passage.text.split(/(?<=\.) /).map((sentence) => `${sentence} ${passage.marker}`),
  );

  it('answers with the best-matching sentences, each with its marker, and nothing else', async () => {
    const { deltas, text, finish } = await run({
      operation: 'chat',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Where was Marie Curie born?' },
      ],
      passages,
    });
    expect(deltas[0]).toBe('Marie Curie was born in Warsaw. [1]');
    expect(deltas.length).toBeLessThanOrEqual(3);
    for (const delta of deltas) expect(sentencesOf).toContain(delta.trim());
    expect(text).toBe(deltas.join(''));
    expect(finish).toMatchObject({ finishReason: 'stop', model: 'builtin' });
    expect(finish.usage.inputTokens).toBeGreaterThan(50);
    expect(finish.usage.outputTokens).toBeGreaterThan(0);
  });

  it('cites the passage a sentence came from', async () => {
    const { deltas } = await run({
      operation: 'chat',
      messages: [{ role: 'user', content: 'What is the capital of Poland?' }],
      passages,
    });
    expect(deltas[0]).toBe('Warsaw is the capital of Poland. [2]');
  });

  it('says so instead of inventing an answer when nothing matches', async () => {
    expect(
      (
        await run({
          operation: 'chat',
          messages: [{ role: 'user', content: 'What is the airspeed of a swallow?' }],
          passages,
        })
      ).text,
    ).toBe(NOTHING_RELEVANT);
    expect(
      (await run({ operation: 'chat', messages: [{ role: 'user', content: 'Where was Marie Curie born?' }] })).text,
    ).toBe(NOTHING_RELEVANT);
    expect((await run({ operation: 'chat', messages: [{ role: 'user', content: 'the of and' }], passages })).text).toBe(
      NOTHING_RELEVANT,
    );
  });

  it('ignores tools and never calls one', async () => {
    const tools = [{ name: 'search_chunks', description: 'search', parameters: { type: 'object' } }];
    const events: ChatStreamEvent[] = [];
    for await (const event of adapter.stream(
      request({
        operation: 'chat',
        tools,
        messages: [{ role: 'user', content: 'Where was Marie Curie born?' }],
        passages,
      }),
    ))
      events.push(event);
    expect(events.some((event) => event.type === 'tool_call')).toBe(false);
  });
});

describe('builtin provider: titles, other operations, check', () => {
  it.each([
    ['  what did **Marie Curie** discover in her lab in Paris?', 'What did Marie Curie discover in'],
    ['hello?', 'Hello'],
    [
      'Antidisestablishmentarianism-and-other-very-long-hyphenated-words-without-spaces here',
      'Antidisestablishmentarianism-and-other-very-long-hyphenated',
    ],
    ['   ', 'Untitled Chat'],
  ])('titles %j as %j', async (content, title) => {
    const { text } = await run({
      operation: 'title',
      messages: [
        { role: 'user', content },
        { role: 'user', content: 'second question' },
      ],
    });
    expect(text).toBe(title);
    expect(text.length).toBeLessThanOrEqual(60);
  });

  it('explains what it cannot do instead of failing', async () => {
    for (const operation of ['vision', 'tool'] as const) {
      const { text, finish } = await run({ operation, messages: [{ role: 'user', content: 'Describe this image.' }] });
      expect(text).toMatch(/^The builtin provider has no language model, so it cannot/);
      expect(finish.finishReason).toBe('stop');
    }
  });

  it('refuses a request with images instead of answering as if it had seen them', async () => {
    const image = { mediaType: 'image/png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) };
    for (const operation of ['vision', 'chat'] as const) {
      const error = await run({
        operation,
        messages: [{ role: 'user', content: 'Describe this image.', images: [image] }],
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(LlmError);
      expect(error).toMatchObject({
        kind: 'bad_request',
        permanent: true,
        message: expect.stringMatching(/cannot describe images/),
      });
    }
  });

  it('is always verified', async () => {
    expect(await adapter.check(['anything'], new AbortController().signal)).toEqual({
      verified: true,
      missingModels: [],
      message: 'builtin provider: no model needed',
    });
    expect(adapter.provider).toBe('builtin');
  });

  it('reported how long loading the NLP models took', () => {
    expect(loadMs).toBeGreaterThan(0);
  });
});

describe('builtin provider: cancellation', () => {
  it('throws cancelled when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const stream = adapter.stream(
      request({ signal: controller.signal, extraction: { pass: 'entities', sentences: sample, nodeTypes: [] } }),
    );
    const iterator = stream[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toMatchObject({ name: 'LlmError', kind: 'cancelled' });
  });

  it('stops between lines when the signal aborts mid-stream', async () => {
    const controller = new AbortController();
    const seen: ChatStreamEvent[] = [];
    const consume = async () => {
      for await (const event of adapter.stream(
        request({ signal: controller.signal, extraction: { pass: 'entities', sentences: sample, nodeTypes: [] } }),
      )) {
        seen.push(event);
        controller.abort();
      }
    };
    const error = await consume().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe('cancelled');
    expect(seen).toHaveLength(1);
    expect(seen[0].type).toBe('text');
  });
});
