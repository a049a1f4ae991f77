import { beforeAll, describe, expect, it } from 'vitest';
import { extractEntities } from '../../src/providers/llm/builtin/entities.ts';
import { loadBuiltinNlp, type BuiltinNlp } from '../../src/providers/llm/builtin/nlp.ts';
import { extractRelationships } from '../../src/providers/llm/builtin/relationships.ts';
import { sentenceSpans } from '../../src/sources/text/sentences.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';

/**
 * Names that hold a patron's possessive or an "of … and", roles written before or after a person's
 * name, and the relations they carry, on sentences of encyclopaedic, news and package text: each rule
 * takes what it must and stays out of sentences that only look alike.
 */

const domain = (name: string) => builtinDomains().find((candidate) => candidate.name === name)!;
let nlp: BuiltinNlp;

beforeAll(async () => {
  nlp = await loadBuiltinNlp();
});

function extract(text: string, domainName = 'generic') {
  const { templates } = domain(domainName);
  const sentences = sentenceSpans(text).map(([start, end]) => text.slice(start, end).replace(/\s+/g, ' '));
  const entities = extractEntities(
    nlp,
    sentences,
    templates.node_templates.map((template) => template.name),
  );
  const edgeTypes = templates.edge_templates.map((template) => template.name);
  const relations = extractRelationships(nlp, { pass: 'relationships', sentences, entities, edgeTypes }).map(
    (relation) => `${entities[relation.sourceIndex].name} -${relation.type}-> ${entities[relation.targetIndex].name}`,
  );
  return { names: entities.map((entity) => entity.name), entities, relations };
}

describe('builtin names with a possessive or "of … and"', () => {
  it("keeps a patron's possessive before an institution's head word in the name", () => {
    expect(extract("She later worked at King's College London, where her images were taken.").names).toEqual([
      "King's College London",
    ]);
    expect(extract("Hucbert was the lay abbot of St. Maurice's Abbey.").names).toContain("St. Maurice's Abbey");
    expect(extract("He trained as a surgeon at Guy's Hospital in Southwark.").names).toContain("Guy's Hospital");
  });

  it('leaves a possessive before other words to its owner', () => {
    const found = extract("Google's Research team moved to Zurich. Anna's College friends met in Oslo.").names;
    expect(found).toContain('Google');
    expect(found).not.toContain("Google's Research");
    expect(found.some((name) => name.startsWith("Anna's"))).toBe(false);
  });

  it('reads "A of B and C" as one name when C stands alone and is known as nothing else', () => {
    const royal = extract('Queen Victoria married Prince Albert of Saxe-Coburg and Gotha in 1840.');
    expect(royal.names).toContain('Albert of Saxe-Coburg and Gotha');
    expect(royal.relations).toContain('Victoria -married_to-> Albert of Saxe-Coburg and Gotha');
    expect(extract('The report was published by the Department of Trade and Industry in London.').names).toContain(
      'Department of Trade and Industry',
    );
  });

  it('keeps two names apart across "and" when the second is a person, a country or a longer name', () => {
    expect(extract('She met the King of France and Mary in Paris.').names).toEqual(
      expect.arrayContaining(['Mary', 'Paris']),
    );
    expect(extract('She met the King of France and Mary in Paris.').names.join(' ')).not.toMatch(/and Mary/);
    expect(extract('He studied at the University of Oxford and Cambridge University.').names).toEqual([
      'University of Oxford',
      'Cambridge University',
    ]);
    expect(extract('Trade between the Kingdom of Sweden and Norway grew.').names.join(' ')).not.toMatch(/and Norway/);
  });

  it("takes a player's or writer's role off the front of the name", () => {
    const found = extract('Midfielder Tomás Ferreira has joined Sporting Braga from Vitória Guimarães.');
    expect(found.names).toContain('Tomás Ferreira');
    expect(found.relations).toContain('Tomás Ferreira -member_of-> Sporting Braga');
    const entity = extract('Novelist Amara Okafor lives in Lagos.').entities.find(
      (candidate) => candidate.name === 'Amara Okafor',
    );
    expect(entity?.properties).toMatchObject({ title: 'Novelist' });
    // A role alone is no one's name to strip.
    expect(extract('Striker scored twice for Braga.').names).not.toContain('Scored');
  });
});

describe('builtin roles and works around a name', () => {
  it('reads a cue past a hyphenated descriptive word ("the Dutch start-up")', () => {
    expect(
      extract('Brightline Software has agreed to buy the Dutch start-up Veldkamp Analytics for $310 million.')
        .relations,
    ).toContain('Brightline Software -acquired-> Veldkamp Analytics');
    // "Oslo-based" still names the place apart.
    expect(extract('The Oslo-based company Halvard Shipping operates 40 tankers.').names).toContain('Oslo');
  });

  it('gives a written work after "for her story collection" to the person the sentence is about', () => {
    expect(
      extract('The novelist Amara Okafor won the Caine Prize on Saturday for her story collection The Salt Roads.')
        .relations,
    ).toContain('Amara Okafor -wrote-> Salt Roads');
    expect(extract('He gave her book Dune to Paul Atreides.').relations).toEqual([]);
    expect(
      extract('Maria Lind read her favourite novel Dune on the train.').relations.some((relation) =>
        relation.includes('-wrote->'),
      ),
    ).toBe(false);
  });

  it('reads a role written after a person: "Ek, the company\'s chief executive", "as its new chief executive"', () => {
    expect(
      extract(
        "Spotify was founded in Stockholm in 2006 by Daniel Ek. Ek, the company's chief executive, announced the cuts.",
      ).relations,
    ).toContain('Daniel Ek -leads-> Spotify');
    expect(
      extract('Halvard Shipping named Ingrid Solberg as its new chief executive on Thursday, replacing Per Aasen.')
        .relations,
    ).toContain('Ingrid Solberg -leads-> Halvard Shipping');
    expect(extract('Arsenal hired Mikel Arteta as its head coach in 2019.').relations).toContain(
      'Mikel Arteta -works_at-> Arsenal',
    );
  });

  it('stays silent on a role that is no post, or a role of no organisation', () => {
    expect(extract("Maria Lind, the company's oldest customer, bought a car from Volvo.").relations).toEqual([]);
    expect(
      extract('Halvard Shipping named Ingrid Solberg as its person of the year.').relations.some((relation) =>
        relation.includes('-leads->'),
      ),
    ).toBe(false);
    expect(
      extract('Anna Berg, a chief executive, spoke in Oslo.').relations.some((relation) =>
        relation.includes('-leads->'),
      ),
    ).toBe(false);
  });
});

describe('builtin relations in the technical domain', () => {
  it('writes who made a program as created_by, a type the technical domain declares', () => {
    const technical = domain('technical').templates.edge_templates.map((template) => template.name);
    expect(technical).toContain('created_by');
    expect(technical).not.toContain('created');
    expect(
      extract(
        'Python was created in the early 1990s by Guido van Rossum at Stichting Mathematisch Centrum.',
        'technical',
      ).relations,
    ).toContain('Python -created_by-> Guido van Rossum');
    // The generic domain keeps its own spelling, from the maker.
    expect(
      extract('Python was created in the early 1990s by Guido van Rossum at Stichting Mathematisch Centrum.').relations,
    ).toContain('Guido van Rossum -created-> Python');
  });
});

describe('builtin titles, awards and makers', () => {
  it('runs a title after a work noun across the lowercase words it holds', () => {
    const found = extract(
      'The director Céline Sciamma presented her new film Portrait of a Lady on Fire at the Cannes Film Festival. The film stars Noémie Merlant and Adèle Haenel.',
    );
    expect(found.names).toContain('Portrait of a Lady on Fire');
    expect(found.relations).toEqual(
      expect.arrayContaining([
        'Noémie Merlant -acted_in-> Portrait of a Lady on Fire',
        'Adèle Haenel -acted_in-> Portrait of a Lady on Fire',
      ]),
    );
  });

  it('stops a title at a place or a year, and at "at"', () => {
    expect(extract('She saw the film Titanic in London with Tom Hanks.').names).toEqual(
      expect.arrayContaining(['Titanic', 'London']),
    );
    expect(extract('The band released the album Blue in 1971 in Los Angeles.').names).toContain('Blue');
    expect(extract('He showed the film Heat at the Venice Film Festival.').names).not.toContain(
      'Heat at the Venice Film Festival',
    );
  });

  it('gives "The film" to the work the text is about before a work named on the way', () => {
    expect(
      extract(
        'Waiting Days is a film from 2003. It is based on a novel by Ana Lind titled" Tamara". The film was produced by Jon Berg.',
      ).relations,
    ).toContain('Jon Berg -produced-> Waiting Days');
  });

  it('reads a title and its subtitle before a copula as one work, and a list label as a label', () => {
    const game = extract(
      'Age of Empires II: The Age of Kings is a real-time strategy game developed by Ensemble Studios and published by Microsoft.',
    );
    expect(game.names).toContain('Age of Empires II: The Age of Kings');
    expect(game.relations).toContain('Microsoft -published-> Age of Empires II: The Age of Kings');
    expect(extract('Lead Vocals: Freddie Mercury is the singer.').names).toEqual(['Freddie Mercury']);
  });

  it('keeps the field of an award after "in" in its name, not a place', () => {
    const prize = extract("The physicist Anne L'Huillier shared the Nobel Prize in Physics on Tuesday.");
    expect(prize.names).toContain('Nobel Prize in Physics');
    expect(prize.relations).toContain("Anne L'Huillier -received_award-> Nobel Prize in Physics");
    expect(extract('Rita Levi-Montalcini won the Nobel Prize in Physiology or Medicine.').names).toContain(
      'Nobel Prize in Physiology or Medicine',
    );
    expect(extract('She received the Nobel Prize in Stockholm in 1911.').names).toEqual(
      expect.arrayContaining(['Nobel Prize', 'Stockholm']),
    );
    // Sharing names an award, not a person or a program.
    expect(extract('Anna Berg shared Oslo with Ola Nordmann.').relations.join(' ')).not.toMatch(/received_award/);
  });

  it('keeps "A of B and C" apart when C opens a name of its own', () => {
    const found = extract('Eleanor was the daughter of Alfonso II of Aragon and Sancha of Castile.');
    expect(found.names).toEqual(expect.arrayContaining(['Alfonso II of Aragon', 'Sancha of Castile']));
  });

  it('keeps a program apart from the project that makes it, and a definition subject whole', () => {
    const openssl = extract(
      'OpenSSL is a toolkit for the Transport Layer Security and Secure Sockets Layer protocols. It is developed by the OpenSSL Project.',
    );
    expect(openssl.names).toEqual(expect.arrayContaining(['OpenSSL', 'OpenSSL Project']));
    expect(openssl.relations).toEqual(
      expect.arrayContaining([
        'OpenSSL -implements-> Transport Layer Security',
        'OpenSSL -implements-> Secure Sockets Layer',
        'OpenSSL Project -developed-> OpenSSL',
      ]),
    );
    const make = extract(
      'GNU Make is a tool which controls the generation of executables. It is part of the GNU Project.',
    );
    expect(make.names).toEqual(expect.arrayContaining(['GNU Make', 'GNU Project']));
    expect(make.relations).toContain('GNU Make -part_of-> GNU Project');
    // A short name that abbreviates a longer one still merges ("Curie" of "Marie Curie").
    expect(extract('Marie Curie was born in Warsaw. Curie moved to Paris.').names).not.toContain('Curie');
  });

  it('reads "a library for" a format or protocol, not for what the name qualifies', () => {
    expect(extract('libpng is the official reference library for the PNG format.').relations).toContain(
      'libpng -implements-> PNG',
    );
    expect(extract('libusb is a library for USB device access from Linux.').relations.join(' ')).not.toMatch(
      /implements/,
    );
    expect(extract('PyGTK is a client library for the GNOME Foundation.').relations.join(' ')).not.toMatch(
      /implements/,
    );
  });
});
