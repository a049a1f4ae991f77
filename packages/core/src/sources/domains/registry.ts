import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { type ValidationIssue } from '@rhizome/contracts/errors';
import { parseDomain, type DomainDefinition, type DomainParseResult } from './schema.ts';

const dataDir = new URL('./data/', import.meta.url);
/** The examples a prompt carries are cut to this many characters (`llm.extraction_examples_max_chars`). */
export const defaultExamplesMaxChars = 800;

let builtins: readonly DomainDefinition[] | null = null;

/**
 * The domains shipped in `data/`, read and validated once. A file that does not validate, carries a
 * field the schema does not know, is not named after its domain or is not marked builtin throws: a
 * broken build must not start.
 */
export function builtinDomains(): DomainDefinition[] {
  builtins ??= readdirSync(dataDir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => deepFreeze(readBuiltinDomainFile(new URL(file, dataDir))));
  return [...builtins];
}

/** One built-in domain file, checked as strictly as `builtinDomains` says. */
export function readBuiltinDomainFile(url: URL): DomainDefinition {
  const file = basename(fileURLToPath(url));
  const fail = (why: string) => new Error(`Built-in domain file ${file}: ${why}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(url, 'utf8'));
  } catch (error) {
    throw fail((error as Error).message);
  }
  const parsed = parseDomain(raw);
  if (!parsed.ok) throw fail(parsed.issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '));
  if (!isDeepStrictEqual(parsed.domain, raw))
    throw fail('has unknown fields or relies on defaults; spell every field out');
  if (`${parsed.domain.name}.json` !== file) throw fail(`must be named ${parsed.domain.name}.json`);
  if (!parsed.domain.builtin) throw fail('must set builtin: true');
  return parsed.domain;
}

/**
 * Checks a domain an operator uploads: the schema and consistency rules, `builtin` false, and a name
 * no built-in domain has (custom domains add to the built-in ones, they never replace one).
 */
export function parseCustomDomain(candidate: unknown): DomainParseResult {
  const parsed = parseDomain(candidate);
  if (!parsed.ok) return parsed;
  const issues: ValidationIssue[] = [];
  if (parsed.domain.builtin) issues.push({ loc: ['builtin'], msg: 'A custom domain cannot be builtin', type: 'const' });
  if (builtinDomains().some((domain) => domain.name === parsed.domain.name)) {
    issues.push({
      loc: ['name'],
      msg: `'${parsed.domain.name}' is a built-in domain; choose another name`,
      type: 'conflict',
    });
  }
  return issues.length > 0 ? { ok: false, issues } : parsed;
}

/** Where a domain comes from: shipped, a drop-in file of the data directory, or stored in the database. */
export type DomainOrigin = 'builtin' | 'file' | 'database';

/** The built-in domains, the drop-in files' and one database's custom ones. */
export class DomainRegistry {
  private readonly byName = new Map<string, { domain: DomainDefinition; origin: DomainOrigin }>();

  /**
   * Throws when a custom domain is marked builtin or repeats a name (a built-in's or another custom's).
   * A database's domain wins over a drop-in file of the same name: a file added later must not change
   * what a database already extracts with.
   */
  constructor(custom: DomainDefinition[], files: readonly DomainDefinition[] = []) {
    for (const domain of builtinDomains()) this.byName.set(domain.name, { domain, origin: 'builtin' });
    for (const domain of files)
      if (!this.byName.has(domain.name)) this.byName.set(domain.name, { domain, origin: 'file' });
    for (const domain of custom) {
      if (domain.builtin) throw new Error(`Custom domain '${domain.name}' is marked builtin`);
      if (['builtin', 'database'].includes(this.byName.get(domain.name)?.origin ?? ''))
        throw new Error(`Custom domain '${domain.name}' takes a name that is already in use`);
      this.byName.set(domain.name, { domain, origin: 'database' });
    }
  }

  /** Built-in domains first (by name), then the files' and the database's in the order given. */
  all(): DomainDefinition[] {
    return [...this.byName.values()].map((entry) => entry.domain);
  }

  get(name: string): DomainDefinition | undefined {
    return this.byName.get(name)?.domain;
  }

  originOf(name: string): DomainOrigin | undefined {
    return this.byName.get(name)?.origin;
  }
}

/**
 * Estimated tokens (characters / 4) of the prompt material a domain adds to each extraction call:
 * guidance, examples (cut to `examplesMaxChars`), exclusions, and template names and descriptions.
 */
export function promptTokens(domain: DomainDefinition, examplesMaxChars = defaultExamplesMaxChars): number {
  const { examples, templates } = domain;
  const exampleText = [...examples.alias_examples, ...examples.relationship_examples]
    .join('\n')
    .slice(0, examplesMaxChars);
  const parts = [
    domain.entity_guidance,
    domain.relationship_guidance,
    exampleText,
    ...domain.entity_exclusions.map((exclusion) => `${exclusion.description}: ${exclusion.examples.join(', ')}`),
    ...templates.node_templates.map((template) => `${template.name}: ${template.description}`),
    ...templates.edge_templates.map((template) => `${template.name}: ${template.description}`),
  ];
  return Math.ceil(parts.join('\n').length / 4);
}

export interface DomainSummary {
  name: string;
  description: string;
  builtin: boolean;
  extraction_density: number;
  prompt_tokens: number;
}

/** One entry of `GET /sources/domains`. */
export function domainSummary(domain: DomainDefinition): DomainSummary {
  const { name, description, builtin, extraction_density } = domain;
  return { name, description, builtin, extraction_density, prompt_tokens: promptTokens(domain) };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
