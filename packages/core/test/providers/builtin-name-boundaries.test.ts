import { beforeAll, describe, expect, it } from 'vitest';
import { extractEntities } from '../../src/providers/llm/builtin/entities.ts';
import { foldLetters, loadBuiltinNlp, type BuiltinNlp } from '../../src/providers/llm/builtin/nlp.ts';
import { technicalMentions } from '../../src/providers/llm/builtin/technical-mentions.ts';
import { sentenceSpans } from '../../src/sources/text/sentences.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';

/**
 * Where a name starts and ends, and what it is, on real sentences of the three kinds of text the
 * extractor meets: each rule takes the whole name where it must and stays out of sentences that only
 * look alike.
 */

const generic = builtinDomains().find((domain) => domain.name === 'generic')!;
const nodeTypes = generic.templates.node_templates.map((template) => template.name);
let nlp: BuiltinNlp;

beforeAll(async () => {
  nlp = await loadBuiltinNlp();
});

function names(text: string): Record<string, string> {
  const sentences = sentenceSpans(text).map(([start, end]) => text.slice(start, end).replace(/\s+/g, ' '));
  return Object.fromEntries(extractEntities(nlp, sentences, nodeTypes).map((entity) => [entity.name, entity.type]));
}

const mentioned = (sentence: string) => technicalMentions(sentence).map((found) => `${found.text}:${found.kind}`);

describe('builtin name boundaries', () => {
  it('reads names written with letters beyond Latin-1 whole, and gives back the letters as written', () => {
    expect(foldLetters('Władysław, Český Krumlov, Đorđe, Zoë')).toBe('Wladyslaw, Ceský Krumlov, Dorde, Zoë');
    expect(foldLetters('Москва')).toBe('Москва');
    const found = names('Český Krumlov is a town in Bohemia. It lies south of České Budějovice.');
    expect(found).toMatchObject({ 'Český Krumlov': 'Location', 'České Budějovice': expect.any(String) });
    const sentence = nlp.sentences('Antonín Dvořák was born in Nelahozeves.')[0];
    expect(sentence.text).toBe('Antonín Dvořák was born in Nelahozeves.');
    expect(sentence.tokens.map((token) => token.text).slice(0, 2)).toEqual(['Antonín', 'Dvořák']);
  });

  it('splits a region "of the" its country when both are names, not a name that holds "of the"', () => {
    expect(Object.keys(names('Český Krumlov is a town in the South Bohemian Region of the Czech Republic.'))).toEqual(
      expect.arrayContaining(['South Bohemian Region', 'Czech Republic']),
    );
    expect(Object.keys(names('She studied at the University of the West Indies in Kingston.'))).toContain(
      'University of the West Indies',
    );
  });

  it('keeps a regnal number and the epithet after it in the name, and a pronoun "I" out of it', () => {
    const found = names(
      'He was the son of Władysław I the Elbow-high and Jadwiga of Kalisz. He was succeeded by Louis I of Hungary.',
    );
    expect(Object.keys(found)).toEqual(
      expect.arrayContaining(['Władysław I the Elbow-high', 'Jadwiga of Kalisz', 'Louis I of Hungary']),
    );
    expect(Object.keys(names('Yesterday Anna I met in Paris.'))).toEqual(['Anna', 'Paris']);
  });

  it('takes a capitalised stop word before a surname as a given name only where a name can stand', () => {
    expect(Object.keys(names('Halvard Shipping named Ingrid Solberg, replacing Per Aasen, who retired.'))).toContain(
      'Per Aasen',
    );
    expect(Object.keys(names('Tickets cost 40 kroner Per Person at the door.'))).not.toContain('Per Person');
  });

  it("gives an event's year to its name, not a year that opens the sentence", () => {
    expect(names('The Third Man won the Grand Prix at the 1949 Cannes Film Festival.')).toHaveProperty([
      '1949 Cannes Film Festival',
    ]);
    expect(names('He competed at the 2014 Summer Youth Olympics in Nanjing.')).toHaveProperty([
      '2014 Summer Youth Olympics',
    ]);
    expect(Object.keys(names('In 1949 Cannes hosted the first festival.'))).toEqual(['Cannes']);
  });

  it("keeps a company's trade in its name and types it an organisation, but no phrase ending in it", () => {
    expect(names('Brightline Software has agreed to buy the Dutch start-up Veldkamp Analytics.')).toMatchObject({
      'Brightline Software': 'Organization',
      'Veldkamp Analytics': 'Organization',
    });
    expect(names('Halvard Shipping named Ingrid Solberg as its new chief executive.')).toMatchObject({
      'Halvard Shipping': 'Organization',
    });
    expect(Object.values(names('Users of Free Software should read the manual.'))).not.toContain('Organization');
  });

  it('keeps the subject of a definition that the text also writes in lowercase', () => {
    const found = names(
      'Fontconfig is a library which handles font configuration. GTK and Qt use fontconfig to find fonts.',
    );
    expect(found).toHaveProperty(['Fontconfig']);
    // An ordinary word capitalised at the start of a sentence is still no name.
    expect(Object.keys(names('Access is granted to members. Members get access at the door.'))).toEqual([]);
  });
});

describe('builtin technical notation: languages, alphanumeric names, licences', () => {
  it('reads a language after "written in" and the languages listed with it, and C++ anywhere', () => {
    expect(mentioned('It is written in C (Haiku backend in C++) and licensed under the LGPL.')).toEqual(
      expect.arrayContaining(['C:language', 'C++:language']),
    );
    expect(mentioned('MPC is implemented in C, Rust and Go.')).toEqual(
      expect.arrayContaining(['C:language', 'Rust:language', 'Go:language']),
    );
    expect(mentioned('Press C to continue, or search C code with cscope.')).not.toContain('C:language');
    expect(mentioned('Go to C and written in cursive.')).toEqual([]);
  });

  it('names lowercase words that mix letters and digits, but no hash, version or board number', () => {
    expect(mentioned('e2fsprogs supports ext2, ext3 and ext4; e2fsck checks them.')).toEqual([
      'e2fsprogs:software',
      'ext2:software',
      'ext3:software',
      'ext4:software',
      'e2fsck:software',
    ]);
    expect(mentioned('Fixed in commit 3f2a9c1d for v2 of a1 boards.')).toEqual([]);
    // The gazetteer's kind wins for a word it knows.
    expect(mentioned('Compress it with bzip2.')).toEqual(['bzip2:command']);
  });

  it('takes a licence named by the word before "license" whole, never a pronoun or a company suffix', () => {
    expect(mentioned('It has been released as Open Source under the BSD license.')).toContain('BSD license:document');
    expect(mentioned('Copyright Free Software Foundation, Inc. License GPLv3+')).toEqual(['GPLv3+:document']);
    expect(mentioned('This License applies to any program. The license is short.')).toEqual([]);
  });
});
