import { beforeAll, describe, expect, it } from 'vitest';
import { extractEntities } from '../../src/providers/llm/builtin/entities.ts';
import { loadBuiltinNlp, type BuiltinNlp } from '../../src/providers/llm/builtin/nlp.ts';
import { extractRelationships } from '../../src/providers/llm/builtin/relationships.ts';
import { sentenceSpans } from '../../src/sources/text/sentences.ts';
import { builtinDomains } from '../../src/sources/domains/registry.ts';

/**
 * Relations stated by a clause's shape rather than by a verb right before a name — a participle after
 * a comma, "as" after a passive's agent, a place "of the" a place, an institution and its town, "is
 * home to", support for a protocol — and titles over a realm: real sentences that must state the
 * relation, and look-alikes that must not.
 */

const generic = builtinDomains().find((domain) => domain.name === 'generic')!;
const nodeTypes = generic.templates.node_templates.map((template) => template.name);
const edgeTypes = generic.templates.edge_templates.map((template) => template.name);
let nlp: BuiltinNlp;

beforeAll(async () => {
  nlp = await loadBuiltinNlp();
});

function relations(text: string): string[] {
  const sentences = sentenceSpans(text).map(([start, end]) => text.slice(start, end).replace(/\s+/g, ' '));
  const found = extractEntities(nlp, sentences, nodeTypes);
  return extractRelationships(nlp, { pass: 'relationships', sentences, entities: found, edgeTypes }).map(
    (relation) => `${found[relation.sourceIndex].name} -${relation.type}-> ${found[relation.targetIndex].name}`,
  );
}

const names = (text: string) =>
  extractEntities(
    nlp,
    sentenceSpans(text).map(([start, end]) => text.slice(start, end)),
    nodeTypes,
  ).map((entity) => `${entity.name} (${entity.type})`);

describe('builtin relations from the shape of a clause', () => {
  it('gives "replacing" to the person named, not to the company naming them', () => {
    expect(relations('Ingrid Solberg was named chief executive of Halvard Shipping, replacing Per Aasen.')).toContain(
      'Ingrid Solberg -successor_of-> Per Aasen',
    );
    expect(relations('Opus replaced libcelt in Debian.')).not.toContain('Debian -successor_of-> libcelt');
  });

  it('reads "as the successor of" after a passive\'s agent as said of what the agent made', () => {
    const found = relations(
      'XZ Utils is data compression software. It was developed by Lasse Collin as the successor of LZMA Utils.',
    );
    expect(found).toEqual(
      expect.arrayContaining(['Lasse Collin -developed-> XZ Utils', 'XZ Utils -successor_of-> LZMA Utils']),
    );
    expect(found).not.toContain('Lasse Collin -successor_of-> LZMA Utils');
  });

  it('gives a passive after a comma to the thing named before the comma, never to a person there', () => {
    expect(
      relations(
        'Amara Okafor won the Caine Prize for her story collection The Salt Roads, published by Cassava Republic Press.',
      ),
    ).toContain('Cassava Republic Press -published-> Salt Roads');
    expect(relations('The Louvre, founded by Napoleon Bonaparte, is a museum.')).toContain(
      'Napoleon Bonaparte -founded-> Louvre',
    );
    expect(relations('Marie Curie met Pierre Curie in Paris, published by chance.')).toEqual([
      'Marie Curie -related_to-> Pierre Curie',
    ]);
  });

  it('places an institution in the town after its comma, but not in a list of institutions', () => {
    expect(relations('Rosalind Franklin studied at Newnham College, Cambridge.')).toEqual([
      'Rosalind Franklin -educated_at-> Newnham College',
      'Newnham College -located_in-> Cambridge',
    ]);
    expect(relations('She worked at Google, Oxford and Harvard.').join()).not.toContain('located_in');
  });

  it('places a region in the country it is "of", and what a town "is home to" in the town', () => {
    expect(
      relations(
        'Český Krumlov is a town in the South Bohemian Region of the Czech Republic. The town is home to the Egon Schiele Art Centrum.',
      ),
    ).toEqual([
      'Český Krumlov -located_in-> South Bohemian Region',
      'South Bohemian Region -located_in-> Czech Republic',
      'Egon Schiele Art Centrum -located_in-> Český Krumlov',
    ]);
  });

  it('reads support for protocols as implementing them, and support for a person as no such thing', () => {
    expect(relations('GNU Wget is a free utility. It supports HTTP, HTTPS, and FTP protocols.')).toEqual([
      'GNU Wget -implements-> HTTP',
      'GNU Wget -implements-> HTTPS',
      'GNU Wget -implements-> FTP',
    ]);
    expect(relations('Marie Curie supports Pierre Curie.').join()).not.toContain('implements');
  });
});

describe('builtin titles over a realm', () => {
  it('takes the realm of a title for a place, and links no kin to it', () => {
    expect(names('Casimir III the Great was King of Poland from 1333. Lambert was Margrave of Tuscany.')).toEqual([
      'Casimir III the Great (Person)',
      'Poland (Location)',
      'Lambert (Person)',
      'Tuscany (Location)',
    ]);
    expect(relations('Eleanor of Aragon was the daughter of the Queen of Aragon.')).toEqual([]);
    expect(names('The Count of Monte Cristo is a novel.')).toEqual(['The Count of Monte Cristo (Creative Work)']);
  });

  it('keeps "ibn" names whole and apart from the father\'s name they hold', () => {
    expect(
      relations(
        'Lashkari ibn Muhammad ibn Shaddad was the son of Muhammad ibn Shaddad. He was succeeded by Marzuban ibn Muhammad.',
      ),
    ).toEqual([
      'Lashkari ibn Muhammad ibn Shaddad -child_of-> Muhammad ibn Shaddad',
      'Marzuban ibn Muhammad -successor_of-> Lashkari ibn Muhammad ibn Shaddad',
    ]);
  });
});
