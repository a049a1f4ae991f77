import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filteringModes } from '@rhizome/contracts/settings';
import { propertyTypes } from '../../src/graph/templates/property-types.ts';
import { detectDomain, detectionSamples } from '../../src/sources/domains/detect.ts';
import {
  builtinDomains,
  DomainRegistry,
  domainSummary,
  parseCustomDomain,
  promptTokens,
  readBuiltinDomainFile,
} from '../../src/sources/domains/registry.ts';
import { parseDomain, type DomainDefinition } from '../../src/sources/domains/schema.ts';
import { boundedMatchCount, unsafeRegexReason } from '../../src/sources/domains/regex-safety.ts';

const dataDir = new URL('../../src/sources/domains/data/', import.meta.url);
const requiredDomains = [
  'generic',
  'biographical',
  'literary',
  'historical',
  'scientific',
  'technical',
  'legal',
  'medical',
  'financial',
  'news',
  'cybersecurity',
  'design',
  'educational',
  'intelligence',
  'investigation',
  'philosophical',
  'political',
  'reference',
  'theological',
];

const texts: Record<string, string> = {
  biographical: `Clara Weiss was born on 3 March 1872 in Lübeck, the eldest of five children. Her father, a shipping clerk, died when she
was nine, and her mother raised the family on a seamstress's wages. She grew up reading borrowed books and at the age of sixteen won a place
at a teachers' college in Hamburg, where she graduated with honours. In 1896 she married the painter Anton Brandt; their daughter Lotte was
born two years later. Her early career as a schoolteacher gave way to journalism, and later life brought recognition: she was awarded an
honorary doctorate in 1931. Widowed in 1934, she retired to the coast and died in 1950, survived by her daughter and four grandchildren.`,
  legal: `1.1 This Software License Agreement (hereinafter the "Agreement") is entered into by and between Northwind Systems Ltd.
(hereinafter referred to as the "Licensor") and Tailspin Toys Inc. (the "Licensee"), each a "Party". Pursuant to Section 4, the Licensee
shall pay the fees set out in Schedule B within thirty days of invoice. Notwithstanding anything herein to the contrary, neither Party shall
be liable for indirect damages arising hereunder. The Licensee shall indemnify the Licensor against any claim of breach of contract by third
parties. This Agreement is governed by the laws of the State of Delaware, and any dispute shall be resolved by binding arbitration.`,
  medical: `Chief complaint: chest pain for 2 hours. HPI: 67-year-old male with past medical history of hypertension and type 2 diabetes
presents to the emergency department with substernal pressure radiating to the left arm, associated with nausea and diaphoresis.
Vital signs: BP 152/94, HR 104, afebrile. ECG shows ST depression in V4-V6. Troponin elevated at 0.9 ng/mL. Assessment and plan: NSTEMI.
Aspirin 325 mg PO given, start heparin drip, metoprolol 25 mg BID, atorvastatin 80 mg QHS. Cardiology consulted for catheterization;
patient admitted to the cardiac ICU. Hold metformin until renal function is confirmed.`,
  technical: `## Installation

Install the SDK with npm:

\`\`\`
$ npm install @acme/client
\`\`\`

The \`createClient(options)\` function returns a \`Client\` instance. Pass \`baseUrl\` and an API token; the \`timeout\` parameter
defaults to 30 seconds. Calling client.connect() is async and must be awaited.

\`\`\`ts
import { createClient } from '@acme/client';
const client = createClient({ baseUrl: 'http://localhost:8080', token: process.env.TOKEN });
await client.connect();
\`\`\`

GET /v2/items/{id} returns the item as JSON. On an invalid token the endpoint responds with HTTP 401 and the SDK throws AuthError;
the stack trace includes the request id. The \`retry\` option is deprecated since version 3.2.`,
  financial: `Contoso Corporation (NASDAQ: CTSO) today reported financial results for the third quarter of fiscal year 2024. Revenue was
$4.2 billion, up 12% year-over-year, and operating income rose 9% to $1.1 billion. Net income was $880 million, or $1.35 per diluted share,
compared with $1.18 in Q3 2023. Gross margin expanded 140 basis points to 61.5%. Free cash flow for the quarter was $950 million, and the
board approved a quarterly dividend of $0.42 per share and a $2 billion share repurchase program. For the fourth quarter, the company expects
revenue between $4.3 billion and $4.4 billion; this guidance assumes stable interest rates and no further currency headwinds.`,
  news: `GENEVA (Reuters) — Rescue teams searched through the night for survivors after a landslide buried part of a mountain village in
southern Switzerland, officials said on Tuesday. At least four people were killed and a dozen remain missing, a police spokesperson told
reporters at a press conference in Bellinzona. "We are doing everything we can," the regional minister said in a statement. Residents
described a roar before the hillside gave way. The federal government said on Wednesday it would send army helicopters. The operator of the
nearby dam did not immediately respond to a request for comment. (Reporting by Anna Keller; Editing by Mark Dunn)`,
  scientific: `Abstract. We hypothesize that soil nitrogen availability limits seedling growth in boreal forests. In this study we
measured biomass in 240 plots (n = 240) across three sites over two growing seasons. Methods: plots were randomly assigned to a control
group or to one of two fertilisation treatments, and samples were analysed by mass spectroscopy. Results: fertilised seedlings showed a
statistically significant increase in biomass (mean difference 18%, 95% confidence interval 12–24%, p < 0.01), and the effect correlated
with soil moisture. Our findings support the nitrogen-limitation hypothesis and are consistent with earlier experiments by Lindqvist et al.
The dataset and analysis code are available as supplementary material.`,
  literary: `CHAPTER VII

The rain had not stopped for three days when Margaret finally came down to the kitchen. "You shouldn't be up," Thomas said, without
turning from the fire.
"I couldn't sleep," she whispered. She gazed at the letter on the table, its seal still unbroken, and her heart trembled.
"Then read it," he replied, and shrugged as though it meant nothing to him. She smiled faintly, though her eyes filled with tears.
"You know what it will say, my dear." Outside, the wind murmured in the elms, and somewhere beyond the moor a dog barked twice.`,
  historical: `In the 15th century the Ottoman Empire extended its territory deep into the Balkans. After a long siege, Mehmed II
conquered Constantinople in 1453, ending more than a thousand years of Byzantine rule and making the city the capital of his empire.
The sultan's army then invaded Serbia, while the Kingdom of Hungary formed an alliance with Venice against the advancing troops. Historians
regard the conquest as the end of the Middle Ages in the east. The succession struggles that followed Mehmed's death in 1481 weakened the
dynasty for a generation, until Selim I seized the throne and the empire's wars turned towards Persia and Egypt.`,
  cybersecurity:
    'Threat actors exploited CVE-2023-34362, a SQL injection vulnerability in MOVEit Transfer, to gain remote code execution on internet-facing servers. The attackers deployed a web shell named LEMURLOOT and began exfiltration of data within hours. We attribute the campaign with moderate confidence to the Cl0p ransomware group.\n\nIndicators of compromise include the file human2.aspx and traffic to command and control servers. Incident response teams should apply the vendor patch, rotate credentials and hunt for lateral movement using the MITRE ATT&CK techniques T1190 and T1505.003. The advisory rates the flaw CVSS 9.8, critical severity.',
  design:
    'The new design system replaces our ad-hoc style guide with a single component library. Typography is set in Inter for the interface and Source Serif for long reading, on an 8px grid system with generous whitespace. The primary colour palette pairs a deep blue, #1D4ED8, with warm neutrals, and every text colour meets accessibility contrast ratios.\n\nWireframes and a clickable prototype were tested with five personas during usability testing. Designers found that the visual hierarchy of the old layout buried the main action, so the Primary Button now carries the brand identity while secondary actions recede. The mood board drew on Bauhaus posters and Swiss modernist typefaces.',
  educational:
    'Lesson 4: Fractions and Ratios. By the end of this lesson, students will be able to compare two fractions, simplify a ratio and explain the difference between the two. Prerequisites: Lesson 3 (equivalent fractions).\n\nThe teacher begins with a five-minute warm-up on the board, then pupils work in pairs on the worksheet. Exercise 4.1 asks students to order five fractions from smallest to largest; Exercise 4.2 applies ratios to a recipe. Homework: complete the review questions at the end of the chapter. The assessment rubric awards marks for correct working as well as the final answer, and the quiz next week covers both learning objectives.',
  intelligence:
    'Key judgments: We assess with moderate confidence that the group will attempt a further missile test before the end of the year. Reporting indicates that engineers have moved launchers to a facility near the coast, and imagery analysis shows new construction at the site.\n\nHUMINT sources describe a split within the leadership over the programme; we judge it almost certainly will not halt testing. OSINT collection on shipping records points to continued procurement of dual-use components through front companies, despite sanctions. Counterintelligence services in two allied states report increased surveillance of diaspora networks. We have low confidence in the timing, because collection on the command structure remains limited.',
  investigation:
    'Detectives interviewed the witness on 14 March. She stated that she saw the suspect leave the warehouse shortly before the fire and identified him from CCTV footage. The suspect denied being there and gave an alibi that investigators could not confirm.\n\nExhibit 12, a series of bank transfers to a shell company, supports the allegation that the warehouse owner paid for the fire to collect the insurance. Forensic examination of the scene found an accelerant, and the chain of custody for the samples was recorded. A whistleblower at the insurer had raised concerns of fraud a year earlier. The inquiry will decide whether to recommend charges for arson and insurance fraud.',
  philosophical:
    'In the Groundwork, Kant argues that the only thing good without qualification is a good will. Moral worth lies not in the consequences of an action but in the maxim from which it is done, and the categorical imperative commands us to act only on maxims we could will as universal law. This deontology stands against the utilitarianism of Mill, for whom the good is measured by happiness.\n\nAn obvious objection asks whether a maxim can be so described that almost anything passes the test. Hegel pressed a related critique: the formula is empty without the ethical life of a community. Defenders reply that the premises of the argument concern the form of reason, a priori, not its content, and that the thesis survives the objection.',
  political:
    "The governing coalition lost its majority in parliament after the Greens voted against the budget bill. The prime minister called a snap election for June, and early polling shows the opposition Social Democrats ahead with 31% of the vote.\n\nThe party's manifesto promises reform of the pension system and a referendum on electoral reform. Senators from the conservative party accused the government of breaking its campaign promises, while the minister of finance defended the policy as necessary. Analysts expect turnout to be high in urban constituencies, where left-wing candidates have gained ground, and the incumbent faces a difficult campaign trail.",
  reference:
    'aqueduct (n.) A channel or bridge built to carry water over a distance, especially one supported on arches. Etymology: from Latin aquae ductus, conduit of water. Plural: aqueducts. See also canal; viaduct.\n\naquifer (n.) A layer of porous rock that holds groundwater. Derived from Latin aqua, water, and ferre, to bear. Pronunciation: AK-wi-fer. Usage: chiefly in geology. Synonyms: water-bearing stratum. See also artesian well.\n\narchipelago (n.) A group of islands. Etymology: from Italian arcipelago, originally the name of the Aegean Sea. Abbreviation: archip. See also atoll.',
  theological:
    'In Romans 5:8 the apostle Paul writes that God shows his love for us in that while we were still sinners, Christ died for us. Augustine read the passage as the heart of the doctrine of grace: salvation is not earned but given. The Council of Orange in 529 upheld this teaching against the semi-Pelagians.\n\nLater theology drew the doctrine into the sacraments. For the church of the Middle Ages, baptism and the eucharist were the means by which grace reaches the soul, and Thomas Aquinas set out this view in the Summa. The reformers read the same scripture differently, and the covenant theology of the Puritans gave the resurrection and the gospel a new place in worship and prayer.',
};

const shoppingList = `milk
eggs (a dozen)
sourdough bread
bananas, apples
2 lbs chicken thighs
dish soap
paper towels
coffee beans
olive oil`;

function detect(text: string, filename = 'upload.txt') {
  return detectDomain({ samples: detectionSamples(text), filename }, builtinDomains());
}

/** A valid custom domain to derive broken ones from. */
function customDomain(overrides: Partial<DomainDefinition> = {}): Record<string, unknown> {
  return {
    name: 'recipes',
    version: '1.0.0',
    description: 'Cookbooks and recipes',
    builtin: false,
    extraction_density: 1,
    extraction_filtering_mode: 'balanced',
    detection: {
      keywords: [{ terms: ['tablespoon', 'preheat the oven'], weight: 1 }],
      file_extensions: [],
      doc_types: [],
      patterns: [{ regex: '\\b\\d+ ?(?:g|ml|tbsp)\\b', weight: 1, description: 'a quantity' }],
      confidence: {
        base_score: 0.1,
        per_keyword_boost: 0.05,
        extension_boost: 0.1,
        doc_type_boost: 0.2,
        pattern_boost: 0.15,
        min_threshold: 0.4,
      },
    },
    entity_guidance: 'Dishes and ingredients.',
    relationship_guidance: 'Which dish uses which ingredient.',
    entity_exclusions: [],
    examples: { alias_examples: [], relationship_examples: [] },
    content_exclusions: { categories: ['advertising'] },
    templates: {
      node_templates: [
        {
          name: 'Dish',
          description: 'A recipe',
          color: '#f97316',
          icon: 'utensils',
          requires_named_referent: true,
          properties: [],
        },
        {
          name: 'Ingredient',
          description: 'Something a dish is made from',
          color: '#65a30d',
          icon: 'leaf',
          requires_named_referent: false,
          properties: [],
        },
      ],
      edge_templates: [
        {
          name: 'uses_ingredient',
          description: 'The dish needs it',
          source_types: ['Dish'],
          target_types: ['Ingredient'],
          inverse: 'used_in',
        },
        {
          name: 'used_in',
          description: 'The ingredient goes into the dish',
          source_types: ['Ingredient'],
          target_types: ['Dish'],
          inverse: 'uses_ingredient',
        },
        {
          name: 'pairs_with',
          description: 'The two go well together',
          source_types: ['Dish', 'Ingredient'],
          target_types: ['Dish', 'Ingredient'],
          symmetric: true,
        },
      ],
    },
    quality_scoring: { default_entity_score: 18, default_relationship_score: 15, target_density: 2 },
    ...overrides,
  };
}

function issueTypes(result: ReturnType<typeof parseDomain>): string[] {
  return result.ok ? [] : result.issues.map((issue) => `${issue.loc.join('.')}:${issue.type}`);
}

describe('built-in domain files', () => {
  const domains = builtinDomains();

  it('every file in data/ validates and is loaded, under its own name', () => {
    const files = readdirSync(dataDir).filter((file) => file.endsWith('.json'));
    expect(domains.map((domain) => `${domain.name}.json`).sort()).toEqual(files.sort());
    for (const file of files) {
      const raw: unknown = JSON.parse(readFileSync(new URL(file, dataDir), 'utf8'));
      expect(issueTypes(parseDomain(raw)), file).toEqual([]);
    }
  });

  it('includes the required domains with unique names, all marked builtin', () => {
    const names = domains.map((domain) => domain.name);
    expect(names).toEqual(expect.arrayContaining(requiredDomains));
    expect(new Set(names).size).toBe(names.length);
    expect(domains.every((domain) => domain.builtin)).toBe(true);
  });

  it.each(requiredDomains)('%s has the agreed shape', (name) => {
    const domain = domains.find((candidate) => candidate.name === name)!;
    expect(domain.extraction_density).toBeGreaterThanOrEqual(0.95);
    expect(domain.extraction_density).toBeLessThanOrEqual(1.3);
    expect(filteringModes).toContain(domain.extraction_filtering_mode);
    const { node_templates: nodes, edge_templates: edges } = domain.templates;
    expect(nodes.length).toBeGreaterThanOrEqual(8);
    expect(nodes.length).toBeLessThanOrEqual(20);
    expect(edges.length).toBeGreaterThanOrEqual(10);
    expect(edges.length).toBeLessThanOrEqual(25);
    expect(edges.some((edge) => edge.inverse)).toBe(true);
    expect(edges.some((edge) => edge.symmetric)).toBe(true);
    for (const property of nodes.flatMap((node) => node.properties))
      expect(propertyTypes).toContain(property.property_type);
    if (name !== 'generic') expect(domain.detection.keywords.length).toBeGreaterThan(0);
  });

  it('pairs inverses both ways with swapped endpoint types and gives symmetric relationships no inverse', () => {
    for (const domain of domains) {
      const byName = new Map(domain.templates.edge_templates.map((edge) => [edge.name, edge]));
      for (const edge of byName.values()) {
        if (edge.symmetric) {
          expect(edge.inverse, `${domain.name}.${edge.name}`).toBeUndefined();
          expect([...edge.source_types].sort()).toEqual([...edge.target_types].sort());
        }
        if (!edge.inverse) continue;
        const inverse = byName.get(edge.inverse)!;
        expect(inverse.inverse, `${domain.name}.${edge.name}`).toBe(edge.name);
        expect([...inverse.source_types].sort()).toEqual([...edge.target_types].sort());
        expect([...inverse.target_types].sort()).toEqual([...edge.source_types].sort());
      }
    }
  });

  it('fails loudly on a broken, incomplete, over-complete or misnamed file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'domains-'));
    const generic = JSON.parse(readFileSync(new URL('generic.json', dataDir), 'utf8')) as Record<string, unknown>;
    const write = (file: string, content: unknown) => {
      writeFileSync(join(dir, file), typeof content === 'string' ? content : JSON.stringify(content));
      return pathToFileURL(join(dir, file));
    };
    try {
      expect(readBuiltinDomainFile(write('generic.json', generic)).name).toBe('generic');
      expect(() => readBuiltinDomainFile(write('generic.json', '{"name": '))).toThrow(/generic\.json: .*JSON/);
      expect(() => readBuiltinDomainFile(write('generic.json', { ...generic, version: 'x' }))).toThrow(
        /version: must match pattern/,
      );
      expect(() => readBuiltinDomainFile(write('generic.json', { ...generic, colour: 'red' }))).toThrow(
        /unknown fields or relies on defaults/,
      );
      const { entity_exclusions: _omitted, ...withoutExclusions } = generic;
      expect(() => readBuiltinDomainFile(write('generic.json', withoutExclusions))).toThrow(
        /unknown fields or relies on defaults/,
      );
      expect(() => readBuiltinDomainFile(write('other.json', generic))).toThrow(/must be named generic\.json/);
      expect(() => readBuiltinDomainFile(write('generic.json', { ...generic, builtin: false }))).toThrow(
        /builtin: true/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is frozen, so no caller can change the shared copy', () => {
    const domain = builtinDomains()[0];
    expect(() => {
      domain.description = 'changed';
    }).toThrow(TypeError);
  });
});

describe('domain detection', () => {
  it.each(Object.entries(texts))('picks %s for a typical passage', (expected, text) => {
    const proposal = detect(text);
    expect(proposal.detected_domain, JSON.stringify(proposal.ranking.slice(0, 3))).toBe(expected);
    expect(proposal.low_confidence).toBe(false);
    expect(proposal.ranking[0].domain).toBe(expected);
    expect(proposal.confidence).toBeGreaterThan(0.4);
  });

  it('falls back to generic with low confidence for a shopping list', () => {
    const proposal = detect(shoppingList);
    expect(proposal.detected_domain).toBe('generic');
    expect(proposal.low_confidence).toBe(true);
    expect(proposal.ranking).toHaveLength(builtinDomains().length);
  });

  it('ranks every domain, best first, with the detected score as confidence', () => {
    const proposal = detect(texts.legal);
    const scores = proposal.ranking.map((entry) => entry.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(proposal.confidence).toBe(Math.min(1, proposal.ranking[0].score));
  });

  it('matches keywords whole-word and case-insensitively', () => {
    const recipes = parseCustomDomain(
      customDomain({ detection: { ...(customDomain().detection as DomainDefinition['detection']), patterns: [] } }),
    );
    if (!recipes.ok) throw new Error('fixture invalid');
    const score = (text: string) => detectDomain({ samples: [text], filename: 'x' }, [recipes.domain]).ranking[0].score;
    expect(score('Add one TABLESPOON of salt, then Preheat  the\noven.')).toBeCloseTo(0.2);
    expect(score('tablespoonful preheat the ovens')).toBeCloseTo(0.1);
  });

  it('adds the extension and doc type boosts', () => {
    const base = detectDomain({ samples: ['hello'], filename: 'a.txt' }, builtinDomains());
    const boosted = detectDomain(
      { samples: ['hello'], filename: 'src/main.PY', docType: 'API_Reference' },
      builtinDomains(),
    );
    const technical = (proposal: typeof base) => proposal.ranking.find((entry) => entry.domain === 'technical')!.score;
    expect(technical(boosted) - technical(base)).toBeCloseTo(0.3);
  });

  it('ranks a domain that reaches its threshold above a higher-scoring one that does not, detects it, and says so', () => {
    const [recipes, baking] = ['recipes', 'baking'].map((name, index) => {
      const detection = { ...(customDomain().detection as DomainDefinition['detection']), patterns: [] };
      detection.confidence = { ...detection.confidence, min_threshold: index === 0 ? 0.15 : 5 };
      detection.keywords =
        index === 0 ? [{ terms: ['tablespoon'], weight: 1 }] : [{ terms: ['tablespoon', 'oven'], weight: 1 }];
      const parsed = parseCustomDomain(customDomain({ name, detection }));
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      return parsed.domain;
    });
    const proposal = detectDomain({ samples: ['a tablespoon of oil in a hot oven'], filename: 'x' }, [recipes, baking]);
    expect(proposal.ranking.map((entry) => entry.domain)).toEqual(['recipes', 'baking']);
    expect(proposal.ranking[1].score).toBeGreaterThan(proposal.ranking[0].score);
    expect(proposal.detected_domain).toBe('recipes');
    expect(proposal.low_confidence).toBe(true);
  });

  it('stops a slow custom pattern at its time limit instead of hanging', () => {
    const detection = {
      ...(customDomain().detection as DomainDefinition['detection']),
      patterns: [{ regex: '\\s*\\s*\\s*x', weight: 1, description: 'cubic' }],
    };
    const slow = parseCustomDomain(customDomain({ detection }));
    if (!slow.ok) throw new Error('a polynomial pattern passes the static check');
    const started = performance.now();
    const proposal = detectDomain({ samples: [`tablespoon${' '.repeat(2000)}`], filename: 'x' }, [slow.domain]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(proposal.ranking[0].score).toBeCloseTo(0.15); // base + one keyword; the pattern adds nothing
  });
});

describe('detection samples', () => {
  it('covers a short text whole and returns nothing for blank text', () => {
    expect(detectionSamples('  \n ')).toEqual([]);
    expect(detectionSamples('just a few words')).toEqual(['just a few words']);
  });

  it('spreads up to count windows of about chars characters from start to end', () => {
    const words = Array.from({ length: 20_000 }, (_, index) => `w${index}`).join(' ');
    const samples = detectionSamples(words, 5, 2000);
    expect(samples).toHaveLength(5);
    expect(samples[0].startsWith('w0 ')).toBe(true);
    expect(samples[4].endsWith('w19999')).toBe(true);
    for (const sample of samples) {
      expect(sample.length).toBeLessThanOrEqual(2000);
      expect(sample.length).toBeGreaterThan(1900);
      expect(sample).toMatch(/^w\d+ .* w\d+$/); // cut at word boundaries
    }
  });

  it('uses fewer windows when the text is shorter than count × chars', () => {
    expect(detectionSamples('x '.repeat(2500), 5, 2000)).toHaveLength(3);
  });
});

describe('custom domains', () => {
  it('accepts a valid custom domain and drops unknown fields', () => {
    const result = parseCustomDomain({ ...customDomain(), author: 'someone' });
    expect(issueTypes(result)).toEqual([]);
    expect(result.ok && 'author' in result.domain).toBe(false);
  });

  it('fills confidence defaults a custom domain leaves out', () => {
    const detection = { keywords: [{ terms: ['tablespoon'], weight: 1 }] };
    const result = parseCustomDomain(customDomain({ detection } as unknown as Partial<DomainDefinition>));
    expect(result.ok && result.domain.detection.confidence).toEqual({
      base_score: 0.1,
      per_keyword_boost: 0.05,
      extension_boost: 0.1,
      doc_type_boost: 0.2,
      pattern_boost: 0.15,
      min_threshold: 0.25,
    });
  });

  it('rejects a regex that does not compile', () => {
    const detection = {
      ...(customDomain().detection as DomainDefinition['detection']),
      patterns: [{ regex: '(unclosed', weight: 1, description: 'bad' }],
    };
    expect(issueTypes(parseCustomDomain(customDomain({ detection })))).toEqual(['detection.patterns.0.regex:regex']);
  });

  it.each(['(a+)+$', '(\\w+\\s?)*x', '(?:ab|a)*c', '([a-z]{1,5})+', '((x)*y)+'])(
    'rejects the nested quantifier %s',
    (regex) => {
      const detection = {
        ...(customDomain().detection as DomainDefinition['detection']),
        patterns: [{ regex, weight: 1, description: 'slow' }],
      };
      expect(issueTypes(parseCustomDomain(customDomain({ detection })))).toEqual(['detection.patterns.0.regex:regex']);
    },
  );

  it.each(['(?:\\d{3})+', '(?:Inc|Ltd)\\.?', '\\d+(?:\\.\\d+)?', '[(+*)]+', '\\(a+\\)+', '(?<name>x)+'])(
    'accepts the safe pattern %s',
    (regex) => {
      expect(unsafeRegexReason(regex)).toBeNull();
    },
  );

  it('rejects an inverse that names no edge template, or a one-sided one', () => {
    const templates = customDomain().templates as DomainDefinition['templates'];
    const unknown = {
      ...templates,
      edge_templates: [{ ...templates.edge_templates[0], inverse: 'missing' }, templates.edge_templates[1]],
    };
    expect(issueTypes(parseCustomDomain(customDomain({ templates: unknown })))).toContain(
      'templates.edge_templates.0.inverse:reference',
    );
    const oneSided = {
      ...templates,
      edge_templates: [templates.edge_templates[0], { ...templates.edge_templates[1], inverse: undefined }],
    };
    expect(issueTypes(parseCustomDomain(customDomain({ templates: oneSided })))).toEqual([
      'templates.edge_templates.0.inverse:inverse',
    ]);
  });

  it('rejects source or target types that are not node templates of the domain', () => {
    const templates = customDomain().templates as DomainDefinition['templates'];
    const broken = {
      ...templates,
      edge_templates: [
        ...templates.edge_templates,
        { name: 'cooked_by', description: 'x', source_types: ['Dish'], target_types: ['Chef'] },
      ],
    };
    expect(issueTypes(parseCustomDomain(customDomain({ templates: broken })))).toEqual([
      'templates.edge_templates.3.target_types.0:reference',
    ]);
  });

  it('rejects a symmetric relationship that has an inverse', () => {
    const templates = customDomain().templates as DomainDefinition['templates'];
    const broken = {
      ...templates,
      edge_templates: [...templates.edge_templates.slice(0, 2), { ...templates.edge_templates[2], inverse: 'used_in' }],
    };
    expect(issueTypes(parseCustomDomain(customDomain({ templates: broken })))).toContain(
      'templates.edge_templates.2.inverse:inverse',
    );
  });

  it('rejects the name of a built-in domain and a builtin flag', () => {
    expect(issueTypes(parseCustomDomain(customDomain({ name: 'legal' })))).toEqual(['name:conflict']);
    expect(issueTypes(parseCustomDomain(customDomain({ builtin: true })))).toEqual(['builtin:const']);
  });

  it('reports schema errors with their location', () => {
    const result = parseCustomDomain(
      customDomain({
        extraction_filtering_mode: 'loose' as DomainDefinition['extraction_filtering_mode'],
        version: 'one',
      }),
    );
    expect(issueTypes(result).sort()).toEqual(['extraction_filtering_mode:enum', 'version:pattern']);
  });
});

describe('the registry', () => {
  const recipes = (() => {
    const parsed = parseCustomDomain(customDomain());
    if (!parsed.ok) throw new Error('fixture invalid');
    return parsed.domain;
  })();

  it('lists built-in domains then custom ones and finds them by name', () => {
    const registry = new DomainRegistry([recipes]);
    expect(registry.all().map((domain) => domain.name)).toEqual([
      ...builtinDomains().map((domain) => domain.name),
      'recipes',
    ]);
    expect(registry.get('recipes')).toBe(recipes);
    expect(registry.get('legal')?.builtin).toBe(true);
    expect(registry.get('nope')).toBeUndefined();
  });

  it('refuses a custom domain that takes a built-in name', () => {
    expect(() => new DomainRegistry([{ ...recipes, name: 'medical' }])).toThrow(/already in use/);
    expect(() => new DomainRegistry([recipes, recipes])).toThrow(/already in use/);
  });

  it('estimates prompt tokens, positive and stable', () => {
    for (const domain of builtinDomains()) {
      const tokens = promptTokens(domain);
      expect(tokens).toBeGreaterThan(100);
      expect(promptTokens(domain)).toBe(tokens);
      expect(tokens).toBeLessThan(3000);
    }
    expect(promptTokens(recipes)).toBeGreaterThan(0);
    // Examples beyond the cap add nothing.
    const longExamples = { ...recipes, examples: { alias_examples: ['x'.repeat(5000)], relationship_examples: [] } };
    expect(promptTokens(longExamples) - promptTokens(recipes)).toBe(200);
  });

  it('summarises a domain as GET /sources/domains lists it', () => {
    const legal = builtinDomains().find((domain) => domain.name === 'legal')!;
    expect(domainSummary(legal)).toEqual({
      name: 'legal',
      description: legal.description,
      builtin: true,
      extraction_density: 1.25,
      prompt_tokens: promptTokens(legal),
    });
  });
});

describe('bounded pattern tests', () => {
  it('counts at most the limit and only within the input cap', () => {
    expect(boundedMatchCount(/a/g, 'aaaa', 3)).toBe(3);
    expect(boundedMatchCount(/b/g, `${'a'.repeat(5000)}b`, 3)).toBe(0);
    expect(boundedMatchCount(/x*/g, 'yyy', 10)).toBe(4);
  });
});
