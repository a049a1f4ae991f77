import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONFIDENCE,
  formatEntityLine,
  formatRecord,
  formatSentenceRefs,
  LineSplitter,
  parseConfidence,
  parseLine,
  parseLines,
  parseSentenceRefs,
  type ExtractionRecord,
  type ParsedLine,
} from '../../src/providers/llm/line-grammar.ts';

function records(parsed: ParsedLine[]): ExtractionRecord[] {
  return parsed.flatMap((line) => (line.ok ? [line.record] : []));
}

describe('line grammar: formatting', () => {
  it('round-trips every record kind through format and parse', () => {
    const all: ExtractionRecord[] = [
      {
        kind: 'entity',
        name: 'Marie Curie',
        type: 'Person',
        aliases: ['Curie', 'Maria Skłodowska'],
        confidence: 0.9,
        sentenceRefs: [1, 2, 3, 5],
        description: 'Physicist and chemist.',
      },
      {
        kind: 'entity',
        name: 'Warsaw',
        type: 'Place',
        aliases: [],
        confidence: 0.6,
        sentenceRefs: [1],
        description: 'Capital of Poland.',
      },
      { kind: 'property', entityIndex: 0, key: 'born', value: '1867' },
      {
        kind: 'relationship',
        sourceIndex: 0,
        targetIndex: 1,
        type: 'BORN_IN',
        confidence: 0.75,
        sentenceRefs: [1],
        justification: 'Marie Curie was born in Warsaw, then part of the Russian Empire.',
      },
    ];
    const text = all.map(formatRecord).join('\n');
    expect(records(parseLines(text))).toEqual(all);
  });

  it('keeps pipes, line breaks and alias separators out of fields', () => {
    const line = formatEntityLine({
      name: 'A|B',
      type: 'Org\nanisation',
      aliases: ['x;y', ' '],
      confidence: 1.7,
      sentenceRefs: [2, 2, 1],
      description: 'one | two\r\nthree',
    });
    expect(line).toBe('E|A/B|Org anisation|x,y|1|S1-S2|one / two three');
    expect(line.split('|')).toHaveLength(7);
    const parsed = parseLine(line);
    expect(parsed?.ok && parsed.record).toMatchObject({
      name: 'A/B',
      aliases: ['x,y'],
      confidence: 1,
      sentenceRefs: [1, 2],
      description: 'one / two three',
    });
  });

  it('compresses sentence numbers into ranges', () => {
    expect(formatSentenceRefs([5, 1, 2, 3, 9, 10])).toBe('S1-S3, S5, S9-S10');
    expect(formatSentenceRefs([])).toBe('');
  });
});

describe('line grammar: sentence references', () => {
  it.each([
    ['S3', [3]],
    ['S2-S5', [2, 3, 4, 5]],
    ['S1, S5', [1, 5]],
    ['S5, S1-S2, s3', [1, 2, 3, 5]],
    ['s2-s4', [2, 3, 4]],
    ['S2-5', [2, 3, 4, 5]],
    ['S4 – S2', [2, 3, 4]],
    ['S1;S3 and S3', [1, 3]],
    ['[S7]', [7]],
    ['  S1 S2  ', [1, 2]],
  ])('%s → %j', (text, expected) => {
    expect(parseSentenceRefs(text)).toEqual(expected);
  });

  it.each(['', 'none', '3', 'S0', 'S1, foo', 'sentence 3', 'S1-S5000', 'S-1'])('rejects %j', (text) => {
    expect(parseSentenceRefs(text)).toEqual([]);
  });
});

describe('line grammar: confidence', () => {
  it.each([
    ['0.8', 0.8],
    ['.5', 0.5],
    ['80', 0.8],
    ['80%', 0.8],
    ['1', 1],
    ['High', 0.9],
    ['medium', 0.6],
    ['very low', 0.1],
  ])('%s → %d', (text, expected) => {
    expect(parseConfidence(text)).toBeCloseTo(expected);
  });

  it.each(['150', '-0.2', 'sure', ''])('rejects %j', (text) => {
    expect(parseConfidence(text)).toBeNull();
  });
});

describe('line grammar: tolerant parsing of model output', () => {
  const output = [
    'Here are the entities I found:',
    '',
    '```text',
    'E|name|type|aliases|confidence|sent_ref|description',
    '- E | Marie Curie | Person | Curie; Madame Curie | 0.95 | S1, S3 | Physicist | pioneer of radioactivity |',
    '* `E|Warsaw|City||80|S1|Capital of Poland.`',
    '  1. E|Pierre Curie|Person|high|S2|French physicist.',
    'e|Nobel Prize|Award|none|S3|A prize.',
    'E|Sorbonne|Organization|0.7|An old university.',
    'E|Paris|Place',
    'P|0|born|7 November 1867',
    'P|[1]|population|1.8 million | roughly',
    'R|0|1|BORN_IN|0.9|S1|Marie Curie was born in Warsaw, which the text states in S1.',
    'R|0|2|MARRIED_TO|S2|They married in 1895.',
    'R|2|2|SELF|0.5|S2|self link',
    'R|x|2|WORKS_AT|0.5|S2|bad index',
    'R|0|1||0.5|S1|no type',
    '```',
  ].join('\n');
  const parsed = parseLines(output);

  it('reads the records a real model writes around the format', () => {
    expect(records(parsed)).toEqual([
      {
        kind: 'entity',
        name: 'Marie Curie',
        type: 'Person',
        aliases: ['Curie', 'Madame Curie'],
        confidence: 0.95,
        sentenceRefs: [1, 3],
        description: 'Physicist | pioneer of radioactivity',
      },
      {
        kind: 'entity',
        name: 'Warsaw',
        type: 'City',
        aliases: [],
        confidence: 0.8,
        sentenceRefs: [1],
        description: 'Capital of Poland.',
      },
      {
        kind: 'entity',
        name: 'Pierre Curie',
        type: 'Person',
        aliases: [],
        confidence: 0.9,
        sentenceRefs: [2],
        description: 'French physicist.',
      },
      {
        kind: 'entity',
        name: 'Nobel Prize',
        type: 'Award',
        aliases: [],
        confidence: DEFAULT_CONFIDENCE,
        sentenceRefs: [3],
        description: 'A prize.',
      },
      {
        kind: 'entity',
        name: 'Sorbonne',
        type: 'Organization',
        aliases: [],
        confidence: 0.7,
        sentenceRefs: [],
        description: 'An old university.',
      },
      {
        kind: 'entity',
        name: 'Paris',
        type: 'Place',
        aliases: [],
        confidence: DEFAULT_CONFIDENCE,
        sentenceRefs: [],
        description: '',
      },
      { kind: 'property', entityIndex: 0, key: 'born', value: '7 November 1867' },
      { kind: 'property', entityIndex: 1, key: 'population', value: '1.8 million | roughly' },
      {
        kind: 'relationship',
        sourceIndex: 0,
        targetIndex: 1,
        type: 'BORN_IN',
        confidence: 0.9,
        sentenceRefs: [1],
        justification: 'Marie Curie was born in Warsaw, which the text states in S1.',
      },
      {
        kind: 'relationship',
        sourceIndex: 0,
        targetIndex: 2,
        type: 'MARRIED_TO',
        confidence: DEFAULT_CONFIDENCE,
        sentenceRefs: [2],
        justification: 'They married in 1895.',
      },
    ]);
  });

  it('gives a reason for each line it rejects and skips blank lines and fences', () => {
    const rejected = parsed.flatMap((line) => (line.ok ? [] : [[line.reason, line.line.slice(0, 12)]]));
    expect(rejected).toEqual([
      ['not_a_record', 'Here are the'],
      ['template_echo', 'E|name|type|'],
      ['self_link', 'R|2|2|SELF|0'],
      ['bad_index', 'R|x|2|WORKS_'],
      ['missing_field', 'R|0|1||0.5|S'],
    ]);
    expect(parseLine('   ')).toBeNull();
    expect(parseLine('```')).toBeNull();
  });

  it('rejects records without their required fields', () => {
    expect(parseLine('E||Person|0.9|S1|x')).toMatchObject({ ok: false, reason: 'missing_field' });
    expect(parseLine('P|0|born')).toMatchObject({ ok: false, reason: 'missing_field' });
    expect(parseLine('P|zero|born|1867')).toMatchObject({ ok: false, reason: 'bad_index' });
    expect(parseLine('X|foo|bar')).toMatchObject({ ok: false, reason: 'not_a_record' });
  });
});

describe('LineSplitter', () => {
  const text =
    'E|Marie Curie|Person||0.9|S1|First.\r\nE|Warsaw|Place||0.9|S1|Second.\n\nR|0|1|BORN_IN|0.8|S1|Third line without end';
  const expected = [
    'E|Marie Curie|Person||0.9|S1|First.',
    'E|Warsaw|Place||0.9|S1|Second.',
    '',
    'R|0|1|BORN_IN|0.8|S1|Third line without end',
  ];

  function splitAt(cuts: number[]): string[] {
    const splitter = new LineSplitter();
    const lines: string[] = [];
    let from = 0;
    for (const cut of [...cuts, text.length]) {
      lines.push(...splitter.push(text.slice(from, cut)));
      from = cut;
    }
    return [...lines, ...splitter.flush()];
  }

  it('yields the same lines wherever the deltas are cut', () => {
    for (let cut = 0; cut <= text.length; cut++) expect(splitAt([cut])).toEqual(expected);
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let round = 0; round < 200; round++) {
      const cuts = Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * text.length)).sort(
        (a, b) => a - b,
      );
      expect(splitAt(cuts)).toEqual(expected);
    }
  });

  it('one character at a time, with a CRLF split across deltas', () => {
    expect(splitAt(Array.from({ length: text.length }, (_, i) => i))).toEqual(expected);
  });

  it('holds back a partial line until it ends or is flushed', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('E|Mar')).toEqual([]);
    expect(splitter.push('ie|Person\nE|Wa')).toEqual(['E|Marie|Person']);
    expect(splitter.flush()).toEqual(['E|Wa']);
    expect(splitter.flush()).toEqual([]);
    expect(splitter.push('done\n')).toEqual(['done']);
    expect(splitter.flush()).toEqual([]);
  });
});
