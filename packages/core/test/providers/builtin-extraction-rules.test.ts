import { beforeAll, describe, expect, it } from 'vitest';
import { sentenceSpans } from '../../src/sources/text/sentences.ts';
import { extractEntities, type BuiltinEntity } from '../../src/providers/llm/builtin/entities.ts';
import { loadBuiltinNlp, type BuiltinNlp } from '../../src/providers/llm/builtin/nlp.ts';
import { extractRelationships } from '../../src/providers/llm/builtin/relationships.ts';
import { scoreLabelledPassages } from '../fixtures/extraction/score.ts';

const nodeTypes = [
  'Person',
  'Organization',
  'Location',
  'Event',
  'Concept',
  'Product',
  'Creative Work',
  'Document',
  'Technology',
  'Group',
];
const edgeTypes = ['works_at', 'member_of', 'located_in', 'founded', 'founded_by', 'created', 'knows', 'related_to'];
let nlp: BuiltinNlp;

beforeAll(async () => {
  nlp = await loadBuiltinNlp();
});

/** Sentences as the harvest hands them over: headings and list lines on their own. */
const split = (text: string) => sentenceSpans(text).map(([start, end]) => text.slice(start, end).replace(/\s+/g, ' '));
const entities = (text: string) => extractEntities(nlp, split(text), nodeTypes);
const byName = (found: BuiltinEntity[]) => Object.fromEntries(found.map((entity) => [entity.name, entity]));

function relations(text: string): string[] {
  const sentences = split(text);
  const found = extractEntities(nlp, sentences, nodeTypes);
  return extractRelationships(nlp, { pass: 'relationships', sentences, entities: found, edgeTypes }).map(
    (relation) => `${found[relation.sourceIndex].name} -${relation.type}-> ${found[relation.targetIndex].name}`,
  );
}

describe('builtin extraction: names a reader would write down', () => {
  it('never turns a heading or a list label into an entity', () => {
    const names = entities(
      'Early life\n\nMarie Curie was born in Warsaw.\n\nLegacy\n\nThe Curie Institute is in Paris.\n\nReturn\n\n- Vocals: Freddie Mercury',
    ).map((entity) => entity.name);
    expect(names).toEqual(['Marie Curie', 'Warsaw', 'Curie Institute', 'Paris', 'Freddie Mercury']);
  });

  it('keeps nationalities as a property of the person, not as entities', () => {
    const found = byName(
      entities('Marie Curie was a Polish and naturalised French physicist. James Watt was a Scottish inventor.'),
    );
    expect(Object.keys(found)).toEqual(['Marie Curie', 'James Watt']);
    expect(found['Marie Curie'].properties).toEqual({ nationality: 'Polish; French' });
    expect(found['James Watt'].properties).toEqual({ nationality: 'Scottish' });
  });

  it('strips titles into a property and types the rest a person', () => {
    const found = byName(entities('Commander Neil Armstrong was an astronaut. Dr. Wernher von Braun led the team.'));
    expect(found['Neil Armstrong']).toMatchObject({ type: 'Person', properties: { title: 'Commander' } });
    expect(found['Wernher von Braun']).toMatchObject({ type: 'Person', properties: { title: 'Dr.' } });
  });

  it('keeps multi-word names whole and types organisations and places by their head words and gazetteers', () => {
    const found = byName(
      entities(
        'Tim Berners-Lee worked at the European Organization for Nuclear Research. Armstrong trained at the Marshall Space Flight Center in Indiana.',
      ),
    );
    expect(found['European Organization for Nuclear Research'].type).toBe('Organization');
    expect(found['Marshall Space Flight Center'].type).toBe('Organization');
    expect(found.Indiana.type).toBe('Location');
  });

  it("takes a definition's subject whole and types it by the noun after the copula; an acronym in brackets is an alias", () => {
    const found = byName(
      entities(
        'Such a Little Pirate is a lost 1918 American silent film directed by George Melford. Les Richards played in the Victorian Football League( VFL).',
      ),
    );
    expect(found['Such a Little Pirate'].type).toBe('Creative Work');
    expect(found['Victorian Football League'].aliases).toContain('VFL');
    expect(found.VFL).toBeUndefined();
  });

  it('takes a title with a comma or an opening pronoun whole only when the copula says it is a work', () => {
    const titles = byName(
      entities(
        'Love, Honor and Obey is a 1920 American silent drama film. My Dear Muthachan is a 1992 Malayalam film.',
      ),
    );
    expect(titles['Love, Honor and Obey'].type).toBe('Creative Work');
    expect(titles['My Dear Muthachan'].type).toBe('Creative Work');
    expect(titles.Malayalam).toBeUndefined();
    const names = entities(
      'The Curie Institute in Paris is named after her. Paris, France is a city. My Brother is a doctor.',
    ).map((entity) => entity.name);
    expect(names).toEqual(expect.arrayContaining(['Curie Institute', 'Paris', 'France']));
    expect(names).not.toContain('Curie Institute in Paris');
    expect(names).not.toContain('Paris, France');
    expect(names).not.toContain('My Brother');
  });

  it("types a definition's subject by the head of the noun phrase, not by a noun modifying it", () => {
    const found = byName(
      entities(
        'Nick Krause( born April 14, 1992) is an American film and television actor. Pinewood Studios is a British film studio.',
      ),
    );
    expect(found['Nick Krause'].type).toBe('Person');
    expect(found['Pinewood Studios'].type).toBe('Organization');
  });

  it('reads a month after a given name as a surname, and a month before a date as a month', () => {
    const names = entities('Theresa May became prime minister in July 2016. Brian May was born on May 19, 1947.').map(
      (entity) => entity.name,
    );
    expect(names).toEqual(expect.arrayContaining(['Theresa May', 'Brian May']));
    expect(names).not.toContain('Brian May 19');
    expect(names).not.toContain('Theresa');
  });

  it('keeps a son named after his father apart from him', () => {
    const found = byName(entities('James Watt was a Scottish inventor. His son James Watt Jr. was born in Glasgow.'));
    expect(found['James Watt'].aliases).not.toContain('James Watt Jr.');
    expect(found['James Watt Jr.'].type).toBe('Person');
    expect(byName(entities('Marie Curie was a physicist. Curie won a prize.'))['Marie Curie'].aliases).toContain(
      'Curie',
    );
  });
});

describe('builtin extraction: relations from patterns', () => {
  it('types born in, died in, married, child and sibling of, and never links a person to a nationality', () => {
    expect(relations('Charles Lamont was born in San Francisco and died in Los Angeles.')).toEqual([
      'Charles Lamont -born_in-> San Francisco',
      'Charles Lamont -died_in-> Los Angeles',
    ]);
    const teutberga = relations(
      'Teutberga( died 11 November 875) was a queen of Lotharingia by marriage to Lothair II. She was a daughter of Bosonid Boso the Elder and sister of Hucbert.',
    );
    expect(teutberga).toEqual(
      expect.arrayContaining([
        'Teutberga -married_to-> Lothair II',
        'Teutberga -child_of-> Bosonid Boso the Elder',
        'Teutberga -sibling_of-> Hucbert',
      ]),
    );
    expect(relations('Marie Curie was a French physicist. In 1895 she married Pierre Curie.').join(' ')).not.toMatch(
      /French/,
    );
  });

  it('types directed by and starring lists, founded by, works at and located in, using the domain spelling', () => {
    expect(
      relations(
        'The Black Marble is a 1980 film directed by Harold Becker. It stars Robert Foxworth, Paula Prentiss and Harry Dean Stanton.',
      ),
    ).toEqual([
      'Harold Becker -directed-> The Black Marble',
      'Robert Foxworth -acted_in-> The Black Marble',
      'Paula Prentiss -acted_in-> The Black Marble',
      'Harry Dean Stanton -acted_in-> The Black Marble',
    ]);
    expect(relations('Microsoft was founded by Bill Gates and Paul Allen. Gates worked at IBM.')).toEqual([
      'Bill Gates -founded-> Microsoft',
      'Paul Allen -founded-> Microsoft',
      'Bill Gates -works_at-> IBM',
    ]);
    expect(relations('The Louvre is a museum located in Paris, France.')).toEqual([
      'Louvre -located_in-> Paris',
      'Paris -located_in-> France',
    ]);
  });

  it("links the people of a film to its whole title, not to the film's language", () => {
    expect(
      relations(
        'My Dear Muthachan is a 1992 Malayalam film written by Sreenivasan and directed by Sathyan Anthikad. It stars Thilakan and Madhurima.',
      ),
    ).toEqual([
      'Sreenivasan -wrote-> My Dear Muthachan',
      'Sathyan Anthikad -directed-> My Dear Muthachan',
      'Thilakan -acted_in-> My Dear Muthachan',
      'Madhurima -acted_in-> My Dear Muthachan',
    ]);
    expect(
      relations(
        'Siti Noerbaja( Perfected Spelling: Siti Nurbaya) is a 1941 film. Directed by Lie Tek Swie, it was the first adaptation. Starring Asmanah, Momo, and Soerjono, it follows two lovers.',
      ),
    ).toEqual([
      'Lie Tek Swie -directed-> Siti Noerbaja',
      'Asmanah -acted_in-> Siti Noerbaja',
      'Momo -acted_in-> Siti Noerbaja',
      'Soerjono -acted_in-> Siti Noerbaja',
    ]);
    // "In Debian, …" sets the scene; it does not say where FFmpeg is.
    expect(relations('FFmpeg is a multimedia framework. In Debian, FFmpeg uses GnuTLS.')).not.toContain(
      'FFmpeg -located_in-> Debian',
    );
    expect(relations('James Watt was born in Greenock. His son James Watt Jr. was born in Glasgow.')).toEqual([
      'James Watt -born_in-> Greenock',
      'James Watt -parent_of-> James Watt Jr.',
      'James Watt Jr. -born_in-> Glasgow',
    ]);
  });
});

describe('builtin extraction on the hand-labelled passages', () => {
  it('finds most labelled entities and typed relations, with related_to a minority', async () => {
    const score = await scoreLabelledPassages();
    expect(score.passages).toBeGreaterThanOrEqual(30);
    // Before the readable-extraction rules: entities P 0.63 R 0.82, typed relations P 0.01 R 0.02, related_to 96 %.
    expect(score.entities.precision).toBeGreaterThanOrEqual(0.8);
    expect(score.entities.recall).toBeGreaterThanOrEqual(0.85);
    expect(score.typedEntities.f1).toBeGreaterThanOrEqual(0.65);
    expect(score.relations.precision).toBeGreaterThanOrEqual(0.5);
    expect(score.relations.recall).toBeGreaterThanOrEqual(0.55);
    expect(score.relatedToShare).toBeLessThan(0.35);
  }, 120_000);
});
