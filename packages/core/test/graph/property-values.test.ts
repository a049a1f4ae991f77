import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyTypeNames } from '@rhizome/contracts/api/templates';
import type { ValidationIssue } from '@rhizome/contracts/errors';
import { openSqlite, type Db } from '../../src/storage/connection.ts';
import { Migrator } from '../../src/storage/migrator.ts';
import { seedSystemTemplates } from '../../src/graph/system-templates.ts';
import { propertyTypes, type PropertyDefinition, type PropertyType } from '../../src/graph/templates/property-types.ts';
import { validatePropertyValues, withDefaults } from '../../src/graph/templates/property-values.ts';
import { nodeTemplateLookup } from '../../src/graph/nodes/template-rules.ts';

const person = 'node_person_ada';
const city = 'node_city_paris';
const cityTemplate = 'tpl_city';

let dir: string;
let db: Db;
let lookup: (nodeId: string) => Promise<string | null>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rhizome-property-values-'));
  db = openSqlite(path.join(dir, 'app.db'));
  await new Migrator(path.join(dir, 'backups')).apply(db);
  await seedSystemTemplates(db);
  const now = new Date().toISOString();
  await db('graph_templates').insert({
    id: cityTemplate,
    name: 'City',
    template_type: 'node',
    properties: '[]',
    is_system: false,
    created_at: now,
    updated_at: now,
  });
  await db('graph_nodes').insert([
    {
      id: person,
      template_id: 'system_template_person',
      label: 'Ada',
      properties: '{}',
      created_at: now,
      updated_at: now,
    },
    { id: city, template_id: cityTemplate, label: 'Paris', properties: '{}', created_at: now, updated_at: now },
  ]);
  lookup = nodeTemplateLookup(db);
});

afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

function definition(type: PropertyType, extra: Partial<PropertyDefinition> = {}): PropertyDefinition {
  return { name: 'field', display_name: 'Field', property_type: type, ...extra };
}

async function check(def: PropertyDefinition, value: unknown): Promise<ValidationIssue[]> {
  return validatePropertyValues([def], value === undefined ? {} : { field: value }, lookup);
}

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;

interface Case {
  valid: unknown[];
  /** Each invalid value with the issue type it must produce. */
  invalid: [unknown, string][];
  extra?: Partial<PropertyDefinition>;
}

const matrix: Record<PropertyType, Case> = {
  string: {
    valid: ['hello', '', 'ünïcödé'],
    invalid: [
      [42, 'type'],
      [true, 'type'],
      [['a'], 'type'],
      [{ a: 'b' }, 'type'],
    ],
  },
  text: {
    valid: ['a long text\nwith lines'],
    invalid: [
      [1.5, 'type'],
      [false, 'type'],
      [['x'], 'type'],
    ],
  },
  integer: {
    valid: [0, -7, 42, Number.MAX_SAFE_INTEGER],
    invalid: [
      [1.5, 'type'],
      ['3', 'type'],
      [2 ** 53, 'type'],
      [true, 'type'],
    ],
  },
  float: {
    valid: [1.5, 3, -0.25, 0],
    invalid: [
      ['1.5', 'type'],
      [Number.NaN, 'type'],
      [Number.POSITIVE_INFINITY, 'type'],
      [true, 'type'],
    ],
  },
  boolean: {
    valid: [true, false],
    invalid: [
      ['true', 'type'],
      [1, 'type'],
      [0, 'type'],
    ],
  },
  date: {
    valid: ['2024-02-29', '2000-02-29', '1999-12-31', '0001-01-01'],
    invalid: [
      ['2023-02-29', 'format'],
      ['1900-02-29', 'format'],
      ['2024-13-01', 'format'],
      ['2024-04-31', 'format'],
      ['2024-1-5', 'format'],
      ['2024-01-05T00:00:00Z', 'format'],
      [20240105, 'type'],
    ],
  },
  datetime: {
    valid: ['2024-05-01T12:30:00Z', '2024-05-01T12:30:00.123+02:00', '2024-05-01T23:59:59-0530', '2024-05-01T12:30Z'],
    invalid: [
      ['2024-05-01T12:30:00', 'format'],
      ['2024-05-01', 'format'],
      ['2024-02-30T10:00:00Z', 'format'],
      ['2024-05-01T24:00:00Z', 'format'],
      ['2024-05-01T12:60:00Z', 'format'],
      ['2024-05-01 12:30:00Z', 'format'],
      [1714566600000, 'type'],
    ],
  },
  url: {
    valid: ['https://example.org/a?b=1#c', 'http://localhost:8080', 'https://[::1]/x'],
    invalid: [
      ['ftp://example.org/file', 'format'],
      ['example.org', 'format'],
      ['https://', 'format'],
      ['http://exa mple.org', 'format'],
      ['javascript:alert(1)', 'format'],
      [5, 'type'],
    ],
  },
  email: {
    valid: ['ada@example.org', 'first.last+tag@sub.example.co.uk'],
    invalid: [
      ['ada@', 'format'],
      ['ada example.org', 'format'],
      ['ada@localhost', 'format'],
      ['.ada@example.org', 'format'],
      ['a..b@example.org', 'format'],
      ['ada@-example.org', 'format'],
      [7, 'type'],
    ],
  },
  enum: {
    extra: { enum_values: ['draft', 'published'] },
    valid: ['draft', 'published'],
    invalid: [
      ['Draft', 'enum'],
      ['archived', 'enum'],
      [1, 'enum'],
      [['draft'], 'enum'],
    ],
  },
  json: {
    valid: [{ a: [1, { b: null }] }, [1, 'x', true], 'text', 0, false, {}],
    invalid: [
      [Number.NaN, 'type'],
      [{ bad: Number.POSITIVE_INFINITY }, 'type'],
      [new Map(), 'type'],
      [cyclic, 'type'],
      [() => 1, 'type'],
    ],
  },
  node_reference: {
    valid: [person, city],
    invalid: [
      ['node_missing', 'node_reference'],
      [42, 'type'],
      ['', 'type'],
      [[person], 'type'],
    ],
  },
  node_reference_list: {
    valid: [[], [person], [person, city, person]],
    invalid: [
      [person, 'type'],
      [{ id: person }, 'type'],
      [[person, 5], 'type'],
      [[person, 'node_missing'], 'node_reference'],
    ],
  },
};

describe('property value validation: the type matrix', () => {
  it('covers exactly the 13 property types, which the API schema lists too', () => {
    expect([...propertyTypes].sort()).toEqual(Object.keys(matrix).sort());
    expect(propertyTypes).toHaveLength(13);
    expect([...propertyTypeNames]).toEqual([...propertyTypes]);
  });

  for (const type of Object.keys(matrix) as PropertyType[]) {
    const { valid, invalid, extra } = matrix[type];
    it(`${type}: accepts ${valid.length} valid values`, async () => {
      for (const value of valid)
        expect({ value, issues: await check(definition(type, extra), value) }).toEqual({ value, issues: [] });
    });
    it(`${type}: rejects ${invalid.length} invalid values, naming the property`, async () => {
      expect(invalid.length).toBeGreaterThanOrEqual(2);
      for (const [value, issueType] of invalid) {
        const issues = await check(definition(type, extra), value);
        expect({ value, count: issues.length, type: issues[0]?.type }).toEqual({ value, count: 1, type: issueType });
        expect(issues[0].loc.slice(0, 3)).toEqual(['body', 'properties', 'field']);
        expect(issues[0].msg).toContain("'field'");
      }
    });
  }

  it('points at the offending item of a node_reference_list', async () => {
    const issues = await check(definition('node_reference_list'), [person, 'node_missing', 5]);
    expect(issues.map((issue) => [issue.loc, issue.type])).toEqual([
      [['body', 'properties', 'field', 1], 'node_reference'],
      [['body', 'properties', 'field', 2], 'type'],
    ]);
  });
});

describe('property value validation: required, enum, pattern, references', () => {
  const required = definition('string', { required: true });

  it('requires a required property: missing and null both fail, present passes', async () => {
    expect(await check(required, undefined)).toEqual([
      { loc: ['body', 'properties', 'field'], msg: "Property 'field' is required", type: 'missing' },
    ]);
    expect((await check(required, null)).map((issue) => issue.type)).toEqual(['missing']);
    expect(await check(required, 'x')).toEqual([]);
    expect(await check(required, '')).toEqual([]);
  });

  it('lets an optional property be missing or null', async () => {
    expect(await check(definition('integer'), undefined)).toEqual([]);
    expect(await check(definition('integer'), null)).toEqual([]);
    expect(await check(definition('integer', { required: false }), null)).toEqual([]);
  });

  it('rejects every value of an enum that has no values', async () => {
    expect((await check(definition('enum', { enum_values: [] }), 'anything')).map((issue) => issue.type)).toEqual([
      'enum',
    ]);
  });

  it('applies validation_pattern to string-like values', async () => {
    const code = definition('string', { validation_pattern: '^[A-Z]{3}$' });
    expect(await check(code, 'ABC')).toEqual([]);
    const issues = await check(code, 'abcd');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ loc: ['body', 'properties', 'field'], type: 'pattern' });
    expect(issues[0].msg).toContain('^[A-Z]{3}$');
    const domain = definition('email', { validation_pattern: '@example\\.org$' });
    expect(await check(domain, 'ada@example.org')).toEqual([]);
    expect((await check(domain, 'ada@example.com')).map((issue) => issue.type)).toEqual(['pattern']);
    const longText = definition('text', { validation_pattern: '^\\S+$' });
    expect((await check(longText, 'two words')).map((issue) => issue.type)).toEqual(['pattern']);
  });

  it('reports a type error rather than a pattern error for a value of the wrong type', async () => {
    expect((await check(definition('string', { validation_pattern: '^1$' }), 1)).map((issue) => issue.type)).toEqual([
      'type',
    ]);
  });

  it('limits node references to the allowed node templates', async () => {
    const onlyCities = definition('node_reference', { allowed_node_types: [cityTemplate] });
    expect(await check(onlyCities, city)).toEqual([]);
    const issues = await check(onlyCities, person);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ loc: ['body', 'properties', 'field'], type: 'node_type' });
    expect(issues[0].msg).toContain('system_template_person');
    const cityList = definition('node_reference_list', { allowed_node_types: [cityTemplate, 'system_template_event'] });
    expect(await check(cityList, [city])).toEqual([]);
    expect((await check(cityList, [city, person])).map((issue) => [issue.loc.at(-1), issue.type])).toEqual([
      [1, 'node_type'],
    ]);
    // An empty allowed list allows every template.
    expect(await check(definition('node_reference', { allowed_node_types: [] }), person)).toEqual([]);
  });

  it('looks each referenced node up once', async () => {
    const asked: string[] = [];
    const counting = async (nodeId: string) => {
      asked.push(nodeId);
      return lookup(nodeId);
    };
    const defs = [definition('node_reference'), { ...definition('node_reference_list'), name: 'list' }];
    expect(await validatePropertyValues(defs, { field: person, list: [person, city, city] }, counting)).toEqual([]);
    expect(asked.sort()).toEqual([city, person]);
  });

  it('allows properties the template does not define and reports every problem at once', async () => {
    const defs: PropertyDefinition[] = [
      { name: 'age', display_name: 'Age', property_type: 'integer', required: true },
      { name: 'born', display_name: 'Born', property_type: 'date' },
      { name: 'site', display_name: 'Site', property_type: 'url' },
    ];
    expect(await validatePropertyValues(defs, { age: 36, nickname: 'Ada', anything: { nested: [1] } }, lookup)).toEqual(
      [],
    );
    const issues = await validatePropertyValues(defs, { born: '1815-12-32', site: 'nope', extra: 1 }, lookup, [
      'data',
      0,
      'properties',
    ]);
    expect(issues.map((issue) => [issue.loc, issue.type])).toEqual([
      [['data', 0, 'properties', 'age'], 'missing'],
      [['data', 0, 'properties', 'born'], 'format'],
      [['data', 0, 'properties', 'site'], 'format'],
    ]);
  });
});

describe('withDefaults', () => {
  const defs: PropertyDefinition[] = [
    {
      name: 'status',
      display_name: 'Status',
      property_type: 'enum',
      enum_values: ['draft', 'published'],
      default_value: 'draft',
    },
    { name: 'tags', display_name: 'Tags', property_type: 'json', default_value: { list: ['a'] } },
    { name: 'score', display_name: 'Score', property_type: 'float', default_value: 0 },
    { name: 'note', display_name: 'Note', property_type: 'text', default_value: null },
    { name: 'flag', display_name: 'Flag', property_type: 'boolean', default_value: false },
  ];

  it('fills absent properties with their defaults and keeps given ones', () => {
    expect(withDefaults(defs, { status: 'published', other: 1 })).toEqual({
      status: 'published',
      other: 1,
      tags: { list: ['a'] },
      score: 0,
      flag: false,
    });
  });

  it('keeps an explicit null and adds nothing for a null default', () => {
    const filled = withDefaults(defs, { status: null });
    expect(filled.status).toBeNull();
    expect('note' in filled).toBe(false);
  });

  it('copies defaults, so changing a node never changes the template', () => {
    const input = {};
    const filled = withDefaults(defs, input);
    (filled.tags as { list: string[] }).list.push('b');
    expect(defs[1].default_value).toEqual({ list: ['a'] });
    expect(input).toEqual({});
  });

  it('produces values that pass validation, and a required property with a default is satisfied', async () => {
    const requiredWithDefault: PropertyDefinition[] = [{ ...defs[0], required: true }];
    expect((await validatePropertyValues(requiredWithDefault, {}, lookup)).map((issue) => issue.type)).toEqual([
      'missing',
    ]);
    expect(await validatePropertyValues(requiredWithDefault, withDefaults(requiredWithDefault, {}), lookup)).toEqual(
      [],
    );
  });
});
