import type { JSONSchemaType } from 'ajv';
import { ajvFor } from '@rhizome/contracts/ajv';
import { propertyTypeNames, type PropertyTypeName } from '@rhizome/contracts/api/templates';
import { type ValidationIssue } from '@rhizome/contracts/errors';
import { filteringModes } from '@rhizome/contracts/settings';
import { validationIssues } from '@rhizome/contracts/validation-issues';
import { unsafeRegexReason } from './regex-safety.ts';

/** The content categories a domain can strip from the text sent to the model. */
export const contentCategories = [
  'toc',
  'changelog',
  'legal',
  'bibliography',
  'acknowledgments',
  'boilerplate',
  'metadata',
  'code_blocks',
  'data_tables',
  'math',
  'api_tables',
  'procedural',
  'advertising',
  'web_artifacts',
  'bulk_lists',
] as const;
export type ContentCategory = (typeof contentCategories)[number];
export type FilteringMode = (typeof filteringModes)[number];

export interface KeywordGroup {
  terms: string[];
  weight: number;
}
export interface DetectionPattern {
  regex: string;
  weight: number;
  description: string;
}
export interface ConfidenceSettings {
  base_score: number;
  per_keyword_boost: number;
  extension_boost: number;
  doc_type_boost: number;
  pattern_boost: number;
  min_threshold: number;
}
export interface DomainDetection {
  keywords: KeywordGroup[];
  /** Lower-case, with the dot. */
  file_extensions: string[];
  doc_types: string[];
  patterns: DetectionPattern[];
  confidence: ConfidenceSettings;
}
export interface DomainProperty {
  name: string;
  display_name: string;
  property_type: PropertyTypeName;
  description: string;
}
export interface NodeTemplateDefinition {
  name: string;
  description: string;
  color: string;
  icon: string;
  /** Only entities with a proper name (not "the committee") may take this type. */
  requires_named_referent: boolean;
  properties: DomainProperty[];
}
export interface EdgeTemplateDefinition {
  name: string;
  description: string;
  /** Node template names of the domain, or `*` for any. */
  source_types: string[];
  target_types: string[];
  inverse?: string;
  symmetric?: boolean;
}
export interface EntityExclusion {
  description: string;
  examples: string[];
}

export interface DomainDefinition {
  name: string;
  version: string;
  description: string;
  builtin: boolean;
  extraction_density: number;
  extraction_filtering_mode: FilteringMode;
  detection: DomainDetection;
  entity_guidance: string;
  relationship_guidance: string;
  entity_exclusions: EntityExclusion[];
  examples: { alias_examples: string[]; relationship_examples: string[] };
  content_exclusions: { categories: ContentCategory[] };
  templates: { node_templates: NodeTemplateDefinition[]; edge_templates: EdgeTemplateDefinition[] };
  quality_scoring: { default_entity_score: number; default_relationship_score: number; target_density: number };
}

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '\\S' }) as const;
const list = <T>(items: JSONSchemaType<T>, maxItems: number, minItems = 0) =>
  ({ type: 'array', items, minItems, maxItems }) as const;
const share = { type: 'number', minimum: 0, maximum: 1 } as const;
/** Keyword terms: letters, digits and simple punctuation; matched whole-word and case-insensitively. */
const term = { type: 'string', minLength: 2, maxLength: 60, pattern: "^[\\p{L}\\p{N}][\\p{L}\\p{N} .'&/-]*$" } as const;
const nodeName = {
  type: 'string',
  minLength: 1,
  maxLength: 80,
  pattern: '^[A-Z][A-Za-z0-9]*(?:[ -][A-Za-z0-9]+)*$',
} as const;
const edgeName = {
  type: 'string',
  minLength: 2,
  maxLength: 80,
  pattern: '^(?!system_)[a-z][a-z0-9]*(?:_[a-z0-9]+)*$',
} as const;
const typeRef = { type: 'string', minLength: 1, maxLength: 80 } as const;
const closed = { type: 'object', additionalProperties: false } as const;

/**
 * Detection tuning a domain may leave out. The threshold is calibrated for these boosts
 * on a labelled set of short documents (test/sources/domain-calibration.test.ts); the built-in domains use it too.
 */
export const defaultConfidence: ConfidenceSettings = {
  base_score: 0.1,
  per_keyword_boost: 0.05,
  extension_boost: 0.1,
  doc_type_boost: 0.2,
  pattern_boost: 0.15,
  min_threshold: 0.25,
};

const ConfidenceSchema: JSONSchemaType<ConfidenceSettings> = {
  ...closed,
  properties: {
    base_score: { ...share, default: defaultConfidence.base_score },
    per_keyword_boost: { ...share, default: defaultConfidence.per_keyword_boost },
    extension_boost: { ...share, default: defaultConfidence.extension_boost },
    doc_type_boost: { ...share, default: defaultConfidence.doc_type_boost },
    pattern_boost: { ...share, default: defaultConfidence.pattern_boost },
    min_threshold: { type: 'number', minimum: 0, maximum: 10, default: defaultConfidence.min_threshold },
  },
  required: ['base_score', 'per_keyword_boost', 'extension_boost', 'doc_type_boost', 'pattern_boost', 'min_threshold'],
};

const DetectionSchema: JSONSchemaType<DomainDetection> = {
  ...closed,
  properties: {
    keywords: {
      ...list<KeywordGroup>(
        {
          ...closed,
          properties: {
            terms: list<string>(term, 500, 1),
            weight: { type: 'number', exclusiveMinimum: 0, maximum: 5 },
          },
          required: ['terms', 'weight'],
        },
        50,
      ),
      default: [],
    },
    file_extensions: { ...list<string>({ type: 'string', pattern: '^\\.[a-z0-9]{1,10}$' }, 50), default: [] },
    doc_types: { ...list<string>({ type: 'string', minLength: 1, maxLength: 60 }, 50), default: [] },
    patterns: {
      ...list<DetectionPattern>(
        {
          ...closed,
          properties: {
            regex: { type: 'string', minLength: 1, maxLength: 300 },
            weight: { type: 'number', exclusiveMinimum: 0, maximum: 5 },
            description: text(300),
          },
          required: ['regex', 'weight', 'description'],
        },
        30,
      ),
      default: [],
    },
    confidence: { ...ConfidenceSchema, default: defaultConfidence },
  },
  required: ['keywords', 'file_extensions', 'doc_types', 'patterns', 'confidence'],
};

const NodeTemplateSchema: JSONSchemaType<NodeTemplateDefinition> = {
  ...closed,
  properties: {
    name: nodeName,
    description: text(1000),
    color: { type: 'string', pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$' },
    icon: { type: 'string', minLength: 1, maxLength: 60 },
    requires_named_referent: { type: 'boolean' },
    properties: list<DomainProperty>(
      {
        ...closed,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 80, pattern: '^[a-z][a-z0-9_]*$' },
          display_name: text(120),
          property_type: { type: 'string', enum: [...propertyTypeNames] },
          description: text(500),
        },
        required: ['name', 'display_name', 'property_type', 'description'],
      },
      30,
    ),
  },
  required: ['name', 'description', 'color', 'icon', 'requires_named_referent', 'properties'],
};

const EdgeTemplateSchema: JSONSchemaType<EdgeTemplateDefinition> = {
  ...closed,
  properties: {
    name: edgeName,
    description: text(1000),
    source_types: list<string>(typeRef, 50, 1),
    target_types: list<string>(typeRef, 50, 1),
    inverse: { ...edgeName, nullable: true },
    symmetric: { type: 'boolean', nullable: true },
  },
  required: ['name', 'description', 'source_types', 'target_types'],
};

/** A domain file, built-in or uploaded by an operator. */
export const DomainDefinitionSchema: JSONSchemaType<DomainDefinition> = {
  ...closed,
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 64, pattern: '^[a-z][a-z0-9_-]*$' },
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
    description: text(1000),
    builtin: { type: 'boolean', default: false },
    extraction_density: { type: 'number', minimum: 0.5, maximum: 2 },
    extraction_filtering_mode: { type: 'string', enum: [...filteringModes] },
    detection: DetectionSchema,
    entity_guidance: text(4000),
    relationship_guidance: text(4000),
    entity_exclusions: {
      ...list<EntityExclusion>(
        {
          ...closed,
          properties: { description: text(500), examples: list<string>(text(200), 20) },
          required: ['description', 'examples'],
        },
        30,
      ),
      default: [],
    },
    examples: {
      ...closed,
      properties: { alias_examples: list<string>(text(400), 20), relationship_examples: list<string>(text(400), 20) },
      required: ['alias_examples', 'relationship_examples'],
      default: { alias_examples: [], relationship_examples: [] },
    },
    content_exclusions: {
      ...closed,
      properties: {
        categories: list<ContentCategory>({ type: 'string', enum: [...contentCategories] }, contentCategories.length),
      },
      required: ['categories'],
      default: { categories: [] },
    },
    templates: {
      ...closed,
      properties: {
        node_templates: list<NodeTemplateDefinition>(NodeTemplateSchema, 60, 1),
        edge_templates: list<EdgeTemplateDefinition>(EdgeTemplateSchema, 100, 1),
      },
      required: ['node_templates', 'edge_templates'],
    },
    quality_scoring: {
      ...closed,
      properties: {
        // The type-value (≤25) and specificity parts of the quality formula, and relationships per entity.
        default_entity_score: { type: 'number', minimum: 0, maximum: 25 },
        default_relationship_score: { type: 'number', minimum: 0, maximum: 25 },
        target_density: { type: 'number', exclusiveMinimum: 0, maximum: 20 },
      },
      required: ['default_entity_score', 'default_relationship_score', 'target_density'],
    },
  },
  required: [
    'name',
    'version',
    'description',
    'builtin',
    'extraction_density',
    'extraction_filtering_mode',
    'detection',
    'entity_guidance',
    'relationship_guidance',
    'entity_exclusions',
    'examples',
    'content_exclusions',
    'templates',
    'quality_scoring',
  ],
};

const validate = ajvFor('definition').compile(DomainDefinitionSchema);

export type DomainParseResult = { ok: true; domain: DomainDefinition } | { ok: false; issues: ValidationIssue[] };

/**
 * Checks a candidate domain: the schema, then what a schema cannot say (regexes compile and are not
 * catastrophic, template references resolve, inverse pairs mirror each other). The candidate is not
 * changed; the returned domain is a copy with unknown fields dropped and defaults filled.
 */
export function parseDomain(candidate: unknown): DomainParseResult {
  const copy: unknown = structuredClone(candidate);
  if (!validate(copy)) return { ok: false, issues: validationIssues(validate.errors ?? [], []) };
  for (const edge of copy.templates.edge_templates) {
    // `nullable` is how ajv types an optional field; an explicit null means absent.
    if (edge.inverse == null) delete edge.inverse;
    if (edge.symmetric == null) delete edge.symmetric;
  }
  const issues = checkDomainConsistency(copy);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, domain: copy };
}

/** What a schema cannot say: pattern safety, unique names, template references, inverse and symmetric pairs. */
function checkDomainConsistency(domain: DomainDefinition): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const issue = (loc: (string | number)[], msg: string, type: string) => issues.push({ loc, msg, type });

  domain.detection.patterns.forEach((pattern, index) => {
    const reason = unsafeRegexReason(pattern.regex);
    if (reason) issue(['detection', 'patterns', index, 'regex'], `Pattern ${reason}`, 'regex');
  });

  const { node_templates: nodes, edge_templates: edges } = domain.templates;
  const nodeNames = new Set<string>();
  nodes.forEach((node, index) => {
    const key = node.name.toLowerCase();
    if (nodeNames.has(key))
      issue(['templates', 'node_templates', index, 'name'], `Duplicate node template '${node.name}'`, 'duplicate');
    nodeNames.add(key);
    const propertyNames = new Set<string>();
    node.properties.forEach((property, at) => {
      if (propertyNames.has(property.name)) {
        issue(
          ['templates', 'node_templates', index, 'properties', at, 'name'],
          `Duplicate property '${property.name}'`,
          'duplicate',
        );
      }
      propertyNames.add(property.name);
    });
  });

  const byName = new Map<string, EdgeTemplateDefinition>();
  edges.forEach((edge, index) => {
    if (byName.has(edge.name))
      issue(['templates', 'edge_templates', index, 'name'], `Duplicate edge template '${edge.name}'`, 'duplicate');
    byName.set(edge.name, edge);
  });

  edges.forEach((edge, index) => {
    const loc = ['templates', 'edge_templates', index];
    for (const side of ['source_types', 'target_types'] as const) {
      edge[side].forEach((type, at) => {
        if (type !== '*' && !nodeNames.has(type.toLowerCase()))
          issue([...loc, side, at], `'${type}' is not a node template of this domain (or *)`, 'reference');
      });
    }
    if (edge.symmetric && !sameTypes(edge.source_types, edge.target_types)) {
      issue([...loc, 'target_types'], 'A symmetric relationship needs the same source and target types', 'symmetric');
    }
    if (edge.inverse === undefined) return;
    const inverse = byName.get(edge.inverse);
    if (!inverse) issue([...loc, 'inverse'], `'${edge.inverse}' is not an edge template of this domain`, 'reference');
    else if (edge.symmetric || inverse.symmetric)
      issue([...loc, 'inverse'], 'A symmetric relationship has no inverse', 'inverse');
    else if (inverse === edge)
      issue([...loc, 'inverse'], 'A relationship cannot be its own inverse; mark it symmetric instead', 'inverse');
    else if (inverse.inverse !== edge.name)
      issue([...loc, 'inverse'], `'${inverse.name}' must name '${edge.name}' as its inverse`, 'inverse');
    else if (
      !sameTypes(edge.source_types, inverse.target_types) ||
      !sameTypes(edge.target_types, inverse.source_types)
    ) {
      issue(
        [...loc, 'inverse'],
        `'${inverse.name}' must have this relationship's source and target types swapped`,
        'inverse',
      );
    }
  });
  return issues;
}

function sameTypes(left: string[], right: string[]): boolean {
  const normalise = (types: string[]) => [...new Set(types.map((type) => type.toLowerCase()))].sort().join('\u0000');
  return normalise(left) === normalise(right);
}
