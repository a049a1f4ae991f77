import { isDeepStrictEqual } from 'node:util';
import { Conflict, Invalid, NotFound, type ValidationIssue } from '@rhizome/contracts/errors';
import type { SourceStatus } from '@rhizome/contracts/api/sources';
import type { Db } from '../../storage/index.ts';
import { domainFiles, reloadDomainFiles, type DomainFilesReport } from './domain-files.ts';
import { builtinDomains, DomainRegistry, parseCustomDomain, promptTokens, type DomainOrigin } from './registry.ts';
import type { DomainDefinition } from './schema.ts';

/** One domain as `GET /sources/domains/{name}` answers it. */
export interface DomainEntry {
  origin: DomainOrigin;
  prompt_tokens: number;
  domain: DomainDefinition;
}

/** What became of a domain another database's package brought (`DatabaseDomains.adopt`). */
export type AdoptedDomain =
  { name: string; outcome: 'added' | 'present' } | { name: string; outcome: 'kept' | 'refused'; reason: string };

/** Statuses of a source whose extraction has yet to use its domain: the domain cannot be deleted under it. */
const awaitingExtraction: SourceStatus[] = [
  'pending',
  'indexing',
  'vision_pending',
  'indexed',
  'awaiting_confirmation',
  'extracting',
  'mcp_extracting',
];

/**
 * The built-in domains plus the drop-in files of `dataDir` (or of the data directory this process
 * serves) plus the custom ones stored in this database. Read fresh on every call, so a write is seen by
 * detection and extraction at once; the stored definitions are parsed once per text.
 */
export async function domainRegistryFor(db: Db, dataDir?: string): Promise<DatabaseDomains> {
  const rows = (await db('custom_domains').select('name', 'definition')) as { name: string; definition: string }[];
  const taken = new Set(builtinDomains().map((domain) => domain.name));
  const stored = rows.filter((row) => !taken.has(row.name)).flatMap((row) => storedDefinition(row.definition));
  return new DatabaseDomains(db, stored, domainFiles(dataDir), dataDir);
}

/**
 * A database's domains, read when it was made, and the writes to its custom ones: each write checks the
 * definition with the schema the built-in ones pass; built-in and drop-in domains are never changed here.
 * After a write, ask `domainRegistryFor` again for the new state.
 */
export class DatabaseDomains extends DomainRegistry {
  constructor(
    private readonly db: Db,
    custom: DomainDefinition[],
    files: readonly DomainDefinition[],
    private readonly dataDir?: string,
  ) {
    super(custom, files);
  }

  entry(name: string): DomainEntry {
    const domain = this.get(name);
    if (!domain) throw NotFound.resource('Domain', name);
    return { origin: this.originOf(name)!, prompt_tokens: promptTokens(domain), domain };
  }

  /**
   * A new custom domain: a full definition, or `{copy_of, name, description?}` to start from any known
   * domain (a built-in one included) under a new name.
   */
  async create(body: unknown): Promise<DomainEntry> {
    const domain = parsed(isCopyRequest(body) ? this.copyOf(body) : body);
    if (this.get(domain.name))
      throw new Conflict(`A domain named '${domain.name}' exists already (${this.originOf(domain.name)})`, {
        name: domain.name,
        origin: this.originOf(domain.name),
      });
    const now = new Date().toISOString();
    await this.db('custom_domains').insert({
      name: domain.name,
      definition: JSON.stringify(domain),
      created_at: now,
      updated_at: now,
    } as { name: string; definition: string });
    return { origin: 'database', prompt_tokens: promptTokens(domain), domain };
  }

  /** The domains users added (drop-in files and this database's), or only those of `names`. */
  userDomains(names?: ReadonlySet<string>): DomainDefinition[] {
    return this.all().filter(
      (domain) => this.originOf(domain.name) !== 'builtin' && (!names || names.has(domain.name)),
    );
  }

  /**
   * Stores a domain another database exported, unless its name is taken: a built-in name is never
   * overwritten, and a domain of the same name with other content is kept as it is ('kept', with why).
   * An identical one is 'present'; a definition that does not validate is 'refused'.
   */
  async adopt(candidate: unknown): Promise<AdoptedDomain> {
    const claimed = (candidate as { name?: unknown } | null)?.name;
    const name = typeof claimed === 'string' ? claimed : '(unnamed)';
    const existing = this.get(name);
    if (existing) {
      const origin = this.originOf(name)!;
      if (origin !== 'builtin' && isDeepStrictEqual(parseCustomDomain(candidate), { ok: true, domain: existing }))
        return { name, outcome: 'present' };
      return {
        name,
        outcome: 'kept',
        reason:
          origin === 'builtin'
            ? `'${name}' is a built-in domain, which an import never replaces`
            : `a different domain '${name}' exists already (${origin}); it is kept`,
      };
    }
    const result = parseCustomDomain(candidate);
    if (!result.ok)
      return {
        name,
        outcome: 'refused',
        reason: result.issues.map((issue) => `${issue.loc.join('.') || 'domain'}: ${issue.msg}`).join('; '),
      };
    await this.create(result.domain);
    return { name, outcome: 'added' };
  }

  /** Replaces a custom domain of this database with a full definition under the same name. */
  async replace(name: string, body: unknown): Promise<DomainEntry> {
    this.assertWritable(name, 'changed');
    const domain = parsed(body);
    if (domain.name !== name)
      throw new Invalid([
        {
          loc: ['body', 'name'],
          msg: `The name must stay '${name}'; to rename, create a copy (copy_of) and delete this one`,
          type: 'const',
        },
      ]);
    await this.db('custom_domains')
      .where({ name })
      .update({ definition: JSON.stringify(domain), updated_at: new Date().toISOString() } as { definition: string });
    return { origin: 'database', prompt_tokens: promptTokens(domain), domain };
  }

  /** Deletes a custom domain no source still waits to be extracted with. */
  async remove(name: string): Promise<void> {
    this.assertWritable(name, 'deleted');
    const waiting = (await this.db('sources')
      .where((query) => query.where({ forced_domain: name }).orWhere({ extraction_domain: name }))
      .whereIn('status', awaitingExtraction)
      .pluck('id')) as string[];
    if (waiting.length > 0)
      throw new Conflict(
        `Domain '${name}' is chosen for ${waiting.length} source(s) not yet extracted; extract them, choose another domain or delete them first`,
        { name, source_ids: waiting.slice(0, 20) },
      );
    await this.db('custom_domains').where({ name }).delete();
  }

  /** Reads the drop-in files again and says what they gave (loaded names, files left out and why). */
  reloadFiles(): DomainFilesReport {
    if (!this.dataDir) throw new Error('reloadFiles needs the registry of a data directory');
    return reloadDomainFiles(this.dataDir);
  }

  private assertWritable(name: string, verb: 'changed' | 'deleted'): void {
    const origin = this.originOf(name);
    if (!origin) throw NotFound.resource('Domain', name);
    if (origin === 'builtin')
      throw new Conflict(
        `Domain '${name}' is built in and cannot be ${verb}; create a copy with {"copy_of": "${name}", "name": "..."}`,
        { name, origin },
      );
    if (origin === 'file')
      throw new Conflict(
        `Domain '${name}' comes from a file in the data directory's domains/ folder and cannot be ${verb} here; edit or remove the file and reload plugins`,
        { name, origin },
      );
  }

  private copyOf(request: CopyRequest): Record<string, unknown> {
    const source = this.get(request.copy_of);
    if (!source)
      throw new Invalid([
        { loc: ['body', 'copy_of'], msg: `No domain is named '${request.copy_of}'`, type: 'reference' },
      ]);
    const extra = Object.keys(request).filter((key) => !copyFields.has(key));
    if (extra.length > 0)
      throw new Invalid(
        extra.map((key) => ({
          loc: ['body', key],
          msg: 'A copy takes only copy_of, name and description; change the rest with PUT afterwards',
          type: 'additional',
        })),
      );
    return {
      ...structuredClone(source),
      builtin: false,
      name: request.name,
      description: request.description ?? source.description,
    };
  }
}

interface CopyRequest {
  copy_of: string;
  name?: unknown;
  description?: string;
}
const copyFields = new Set(['copy_of', 'name', 'description']);

function isCopyRequest(body: unknown): body is CopyRequest {
  return typeof body === 'object' && body !== null && typeof (body as { copy_of?: unknown }).copy_of === 'string';
}

/** The definition checked as a custom domain, or 422 with its issues under `body`. */
function parsed(candidate: unknown): DomainDefinition {
  const result = parseCustomDomain(candidate);
  if (result.ok) return result.domain;
  const issues: ValidationIssue[] = result.issues.map((issue) => ({ ...issue, loc: ['body', ...issue.loc] }));
  const conflict = issues.find((issue) => issue.type === 'conflict');
  if (conflict)
    throw new Conflict(conflict.msg, { name: (candidate as { name?: unknown }).name ?? null, origin: 'builtin' });
  throw new Invalid(issues);
}

/** Most stored definitions kept parsed; one per distinct text, so an unchanged domain keeps its compiled cues. */
const parsedCacheSize = 256;
const parsedByText = new Map<string, DomainDefinition>();

/** A stored row's domain, parsed once per text; a row that no longer validates is left out. */
function storedDefinition(text: string): DomainDefinition[] {
  const cached = parsedByText.get(text);
  if (cached) return [cached];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return [];
  }
  const result = parseCustomDomain(raw);
  if (!result.ok) return [];
  if (parsedByText.size >= parsedCacheSize) parsedByText.delete(parsedByText.keys().next().value!);
  parsedByText.set(text, Object.freeze(result.domain));
  return [result.domain];
}
