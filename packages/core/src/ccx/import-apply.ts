import { randomBytes } from 'node:crypto';
import { newEdgeId, newNodeId, newTemplateId } from '../graph/index.ts';
import {
  clearGraph,
  insertEdges,
  insertNodes,
  insertNodeVectors,
  insertTemplates,
  linkEdgeSources,
  linkNodeSources,
  rewriteEdges,
  rewriteNodes,
  templateIdentities,
  type EdgeSourceLink,
  type NewEdge,
  type NewNode,
  type NewTemplate,
  type NodeSourceLink,
} from '../graph/index.ts';
import type { EmbeddingIdentity } from '../providers/index.ts';
import { newSourceId, storeChunkVectorsById, type ChunkVectorById } from '../sources/index.ts';
import { jsonArrayValues, perDialect, selectRows, type Db } from '../storage/index.ts';
import { importDomains } from './domains.ts';
import { ownIdOf } from './format-v2.ts';
import type { CcxCitation, CcxContent, CcxEdge, CcxNode, CcxSource, CcxTag, CcxTemplate, CcxTrigger } from './model.ts';
import { inSlices, insertRows } from './sql.ts';
import { describeError } from '@rhizome/contracts/errors';

/**
 * Writes a read package into a database in one transaction. `merge=false` first clears the graph,
 * sources, chunks, citations and source and entity tags, so a failure anywhere leaves the old data as it was; `merge=true`
 * adds alongside, reusing templates by name and type and recognising nodes, edges and sources imported
 * before by their stable identity (the package IRI, or the id inside one of Rhizome's own IRIs), which
 * are updated in place rather than duplicated. Every id is new; edges and citations are remapped.
 */

export interface ImportStats {
  success: boolean;
  format_version: string;
  package_name: string;
  package_version: string;
  merge: boolean;
  checksum_verified: boolean;
  templates_imported: number;
  templates_skipped: number;
  nodes_imported: number;
  nodes_updated: number;
  nodes_skipped: number;
  edges_imported: number;
  edges_updated: number;
  edges_skipped: number;
  sources_imported: number;
  sources_skipped: number;
  chunks_imported: number;
  citations_imported: number;
  tags_imported: number;
  /** Entity tags the package brought that this database did not have (by name, whatever its case). */
  entity_tags_imported: number;
  workflows_imported: number;
  workflows_skipped: number;
  triggers_imported: number;
  triggers_skipped: number;
  /** Custom domains the package brought that this database did not have. */
  domains_imported: number;
  /** Brought domains not added: present already, a name taken by another definition (see warnings), or invalid. */
  domains_skipped: number;
  embeddings_restored: number;
  embeddings_pending: number;
  /** The background re-embedding of what arrived without usable vectors, when one was queued. */
  reembed_task_id: string | null;
  /** A replacing import's copy of the database as it was before (an operator backup, restorable). */
  safety_backup: string | null;
  errors: string[];
  warnings: string[];
}

export interface ImportOutcome {
  stats: ImportStats;
  nodesCreated: string[];
  edgesCreated: string[];
}

export interface WorkflowImporter {
  /** Stores one workflow definition in the transaction: its local id, and false for `created` when the database already had it (skipped). */
  import(trx: Db, definition: Record<string, unknown>): Promise<{ id: string; created: boolean }>;
  /** Stores one trigger, starting the local workflow `workflowId`; false when it already exists (skipped). */
  importTrigger(trx: Db, trigger: CcxTrigger, workflowId: string): Promise<boolean>;
  workflowExists(trx: Db, id: string): Promise<boolean>;
  /** Removes every user workflow and trigger (a replacing import). */
  clear(trx: Db): Promise<void>;
}

export interface ApplyOptions {
  merge: boolean;
  /** The configured embedder: vectors of exactly this model and dimensions are restored, others re-embedded. */
  embedder: EmbeddingIdentity | null;
  workflows: WorkflowImporter | null;
  /** The data directory whose drop-in domains count as present when the package's domains are added. */
  dataDir?: string;
}

const now = () => new Date().toISOString();
/** 64 MiB, as SQLite's negative cache_size counts KiB. */
const importCacheKib = -65_536;
/** An entity tag's unique key, as the tag store keeps it. */
const nodeTagKey = (name: string) => name.toLowerCase();
const shortId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
/** Nodes or edges written per batch. */
const flushRows = 5_000;
export async function applyCcxImport(db: Db, content: CcxContent, options: ApplyOptions): Promise<ImportOutcome> {
  const stats: ImportStats = {
    success: true,
    format_version: content.info.ccx_version,
    package_name: content.info.name,
    package_version: content.info.package_version,
    merge: options.merge,
    checksum_verified: true,
    templates_imported: 0,
    templates_skipped: 0,
    nodes_imported: 0,
    nodes_updated: 0,
    nodes_skipped: 0,
    edges_imported: 0,
    edges_updated: 0,
    edges_skipped: 0,
    sources_imported: 0,
    sources_skipped: 0,
    chunks_imported: 0,
    citations_imported: 0,
    tags_imported: 0,
    entity_tags_imported: 0,
    workflows_imported: 0,
    workflows_skipped: 0,
    triggers_imported: 0,
    triggers_skipped: 0,
    domains_imported: 0,
    domains_skipped: 0,
    embeddings_restored: 0,
    embeddings_pending: 0,
    reembed_task_id: null,
    safety_backup: null,
    errors: [],
    warnings: [...content.warnings],
  };
  const outcome: ImportOutcome = { stats, nodesCreated: [], edgesCreated: [] };
  await withImportCache(db, () =>
    db.transaction(async (trx) => {
      if (!options.merge) await clearDatabase(trx, options.workflows);
      const run = new ImportRun(trx, content, options, outcome);
      await run.sources();
      await run.templates();
      await run.nodes();
      await run.edges();
      await run.citations();
      await run.workflows();
      const warn = (message: string) => stats.warnings.length < 200 && stats.warnings.push(message);
      Object.assign(stats, await importDomains(trx, content.domains ?? [], options.dataDir, warn));
    }),
  );
  return outcome;
}

/**
 * Runs the import with a large page cache on SQLite, whose connection's cache is small by default: the
 * inserts land on random pages of several indexes. A server's shared buffers are its operator's setting.
 */
const withImportCache = perDialect<[work: () => Promise<void>], Promise<void>>({
  sqlite: async (db, work) => {
    const [{ cache_size: cacheSize }] = (await db.raw('PRAGMA cache_size')) as { cache_size: number }[];
    await db.raw(`PRAGMA cache_size = ${importCacheKib}`);
    await work().finally(() => db.raw(`PRAGMA cache_size = ${Number(cacheSize)}`));
  },
  postgres: (_db, work) => work(),
});

/** Everything a replacing import replaces; system templates and settings-like rows (custom domains) stay. */
async function clearDatabase(trx: Db, workflows: WorkflowImporter | null): Promise<void> {
  // Citations before the graph, which would otherwise delete them one by one through its cascades.
  for (const table of ['relationship_citations', 'source_citations', 'node_tag_links']) await trx(table).delete();
  await clearGraph(trx);
  await trx('node_tags').delete();
  for (const table of ['chunk_vectors', 'document_chunks', 'source_tag_links', 'source_tags'])
    await trx(table).delete();
  await trx('sources').delete();
  await workflows?.clear(trx);
}

class ImportRun {
  private readonly sourceIds = new Map<string, string>();
  /** Sources the database already had (merge): their chunks and citations are not imported again. */
  private readonly skippedSources = new Set<string>();
  private readonly chunkIds = new Map<string, string>();
  private readonly templateIds = new Map<string, string>();
  private readonly templatesByName = new Map<string, string>();
  private readonly nodeIds = new Map<string, string>();
  private readonly edgeIds = new Map<string, string>();
  private readonly stats: ImportStats;

  constructor(
    private readonly trx: Db,
    private readonly content: CcxContent,
    private readonly options: ApplyOptions,
    private readonly outcome: ImportOutcome,
  ) {
    this.stats = outcome.stats;
  }

  private warn(message: string): void {
    if (this.stats.warnings.length < 200) this.stats.warnings.push(message);
  }

  private vectorRestorable(model: string, dimensions: number): boolean {
    return Boolean(
      this.options.embedder && this.options.embedder.model === model && this.options.embedder.dimensions === dimensions,
    );
  }

  /** Existing rows of `table` recognised by IRI (or the id inside one of our own IRIs), for a merge. */
  private async existing(
    table: 'graph_nodes' | 'graph_edges' | 'sources',
    kind: 'node' | 'rel' | 'source',
    iris: string[],
  ): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (!this.options.merge || !iris.length) return found;
    const rows = await inSlices(iris, async (slice) => {
      const ownIds = slice.flatMap((iri) => ownIdOf(iri, kind) ?? []);
      const values = jsonArrayValues(this.trx);
      return selectRows<{ id: string; ccx_iri: string | null }>(
        this.trx,
        `SELECT id, ccx_iri FROM ${table} WHERE ccx_iri IN (${values}) OR id IN (${values})`,
        [JSON.stringify(slice), JSON.stringify(ownIds)],
      );
    });
    const byId = new Map(rows.map((row) => [row.id, row.id]));
    for (const row of rows) if (row.ccx_iri) found.set(row.ccx_iri, row.id);
    for (const iri of iris) {
      const own = ownIdOf(iri, kind);
      if (!found.has(iri) && own && byId.has(own)) found.set(iri, own);
    }
    return found;
  }

  async sources(): Promise<void> {
    const list = this.content.sources;
    const known = await this.existing(
      'sources',
      'source',
      list.map((source) => source.iri),
    );
    const tagIds = await this.tagIds(list);
    const chunkRows: Record<string, unknown>[] = [];
    const vectorRows: ChunkVectorById[] = [];
    const sourceRows: Record<string, unknown>[] = [];
    const links: Record<string, unknown>[] = [];
    for (const source of list) {
      const existing = known.get(source.iri);
      if (existing) {
        this.sourceIds.set(source.key, existing);
        this.skippedSources.add(source.key);
        this.stats.sources_skipped += 1;
        continue;
      }
      const id = newSourceId();
      this.sourceIds.set(source.key, id);
      sourceRows.push(this.sourceRow(source, id));
      for (const chunk of source.chunks) {
        const chunkId = shortId('chunk');
        this.chunkIds.set(`${source.key}\0${chunk.key}`, chunkId);
        chunkRows.push({
          id: chunkId,
          source_id: id,
          chunk_index: chunk.chunk_index,
          content: chunk.content,
          page_number: chunk.page_number,
          section: chunk.section,
          chunk_metadata: chunk.metadata ? JSON.stringify(chunk.metadata) : null,
          start_offset: chunk.start_offset,
          end_offset: chunk.end_offset,
          created_at: chunk.created_at ?? now(),
        });
        if (chunk.embedding && this.vectorRestorable(chunk.embedding.model, chunk.embedding.dimensions)) {
          vectorRows.push({ chunkId, model: chunk.embedding.model, vector: chunk.embedding.values });
        } else this.stats.embeddings_pending += 1;
      }
      for (const tag of source.tags) links.push({ source_id: id, tag_id: tagIds.get(tag.name) });
      this.stats.sources_imported += 1;
      this.stats.chunks_imported += source.chunks.length;
    }
    await insertRows(this.trx, 'sources', Object.keys(sourceRows[0] ?? {}), sourceRows);
    await insertRows(
      this.trx,
      'document_chunks',
      [
        'id',
        'source_id',
        'chunk_index',
        'content',
        'page_number',
        'section',
        'chunk_metadata',
        'start_offset',
        'end_offset',
        'created_at',
      ],
      chunkRows,
    );
    await storeChunkVectorsById(this.trx, vectorRows);
    await insertRows(this.trx, 'source_tag_links', ['source_id', 'tag_id'], links, 'INSERT OR IGNORE');
    this.stats.embeddings_restored += vectorRows.length;
  }

  private sourceRow(source: CcxSource, id: string): Record<string, unknown> {
    const embedded = source.chunks.filter(
      (chunk) => chunk.embedding && this.vectorRestorable(chunk.embedding.model, chunk.embedding.dimensions),
    );
    return {
      id,
      title: source.title,
      filename: source.filename,
      source_type: source.source_type,
      origin_url: source.origin_url,
      // A source arrives with its chunks and graph: nothing of it is left to index or extract.
      status: ['indexed', 'extracted', 'committed'].includes(source.status) ? source.status : 'committed',
      extraction_domain: source.extraction_domain,
      user_metadata: JSON.stringify(source.metadata),
      chunk_count: source.chunks.length,
      embedded_chunk_count: embedded.length,
      embedding_model: embedded[0]?.embedding?.model ?? null,
      embedding_dimensions: embedded[0]?.embedding?.dimensions ?? null,
      current_step: 'imported',
      step_description: 'Imported from a CCX package',
      ccx_iri: source.iri,
      created_at: source.created_at ?? now(),
      updated_at: source.updated_at ?? now(),
    };
  }

  /** Tags by name: an existing tag is reused, a new one created. */
  private async tagIds(list: CcxSource[]): Promise<Map<string, string>> {
    const wanted = new Map<string, CcxTag>();
    for (const source of list) for (const tag of source.tags) if (!wanted.has(tag.name)) wanted.set(tag.name, tag);
    const ids = new Map<string, string>();
    if (!wanted.size) return ids;
    const rows = await this.trx('source_tags')
      .whereIn('name', [...wanted.keys()])
      .select('id', 'name');
    for (const row of rows) ids.set(row.name, row.id);
    const created = [...wanted]
      .filter(([name]) => !ids.has(name))
      .map(([name, { color, description }]) => ({
        id: shortId('tag'),
        name,
        color,
        description,
        created_at: now(),
        updated_at: now(),
      }));
    await insertRows(
      this.trx,
      'source_tags',
      ['id', 'name', 'color', 'description', 'created_at', 'updated_at'],
      created,
    );
    for (const tag of created) ids.set(tag.name, tag.id);
    this.stats.tags_imported += created.length;
    return ids;
  }

  /** Entity tags by lowered name (names are unique whatever their case): an existing tag is reused, a new one created. */
  private async nodeTagIds(list: CcxNode[]): Promise<Map<string, string>> {
    const wanted = new Map<string, CcxTag>();
    for (const node of list)
      for (const tag of node.tags ?? []) if (!wanted.has(nodeTagKey(tag.name))) wanted.set(nodeTagKey(tag.name), tag);
    const ids = new Map<string, string>();
    if (!wanted.size) return ids;
    const rows: { id: string; name_key: string }[] = await inSlices([...wanted.keys()], (slice) =>
      this.trx('node_tags').whereIn('name_key', slice).select('id', 'name_key'),
    );
    for (const row of rows) ids.set(row.name_key, row.id);
    const created = [...wanted]
      .filter(([key]) => !ids.has(key))
      .map(([key, { name, color, description }]) => ({
        id: `ntag_${randomBytes(8).toString('hex')}`,
        name,
        name_key: key,
        color,
        description,
        created_at: now(),
        updated_at: now(),
      }));
    await insertRows(
      this.trx,
      'node_tags',
      ['id', 'name', 'name_key', 'color', 'description', 'created_at', 'updated_at'],
      created,
    );
    for (const tag of created) ids.set(tag.name_key, tag.id);
    this.stats.entity_tags_imported += created.length;
    return ids;
  }

  async templates(): Promise<void> {
    for (const row of await templateIdentities(this.trx)) {
      this.templateIds.set(row.id, row.id);
      const key = `${row.template_type}\0${row.name.toLowerCase()}`;
      if (!this.templatesByName.has(key) || row.is_system) this.templatesByName.set(key, row.id);
    }
    const rows: NewTemplate[] = [];
    for (const template of this.content.templates) {
      const key = `${template.template_type}\0${template.name.toLowerCase()}`;
      const reuse = this.options.merge ? this.templatesByName.get(key) : undefined;
      if (reuse) {
        this.templateIds.set(template.key, reuse);
        this.stats.templates_skipped += 1;
        continue;
      }
      const id = newTemplateId();
      this.templateIds.set(template.key, id);
      this.templatesByName.set(key, id);
      rows.push(this.templateRow(template, id));
      this.stats.templates_imported += 1;
    }
    await insertTemplates(this.trx, rows);
  }

  private templateRow(
    template: Pick<
      CcxTemplate,
      'name' | 'template_type' | 'description' | 'icon' | 'color' | 'properties' | 'source_key'
    >,
    id: string,
  ): NewTemplate {
    const properties = template.properties.filter(
      (entry) => typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string',
    );
    return {
      id,
      name: template.name,
      template_type: template.template_type,
      description: template.description,
      is_system: false,
      extracted: false,
      icon: template.icon,
      color: template.color,
      properties: JSON.stringify(properties),
      source_id: this.sourceIdOf(template.source_key),
      created_at: now(),
      updated_at: now(),
    };
  }

  /** The local template of an item: the package's (remapped), one the database has (system ids), one of that name, else a new or the generic one. */
  private templateFor(type: 'node' | 'edge', key: string | null, name: string | null, rows: NewTemplate[]): string {
    const mapped = key ? this.templateIds.get(key) : undefined;
    if (mapped) return mapped;
    const byName = name ? this.templatesByName.get(`${type}\0${name.toLowerCase()}`) : undefined;
    if (byName) return byName;
    if (type === 'node' && name) {
      const id = newTemplateId();
      this.templatesByName.set(`node\0${name.toLowerCase()}`, id);
      rows.push(
        this.templateRow(
          {
            name,
            template_type: 'node',
            description: 'Created by a CCX import',
            icon: null,
            color: null,
            properties: [],
            source_key: null,
          },
          id,
        ),
      );
      this.stats.templates_imported += 1;
      return id;
    }
    if (key)
      this.warn(
        `Template '${key}' is neither in the package nor in this database; the generic ${type === 'node' ? 'Item' : 'Link'} template is used`,
      );
    return type === 'node' ? 'system_template_item' : 'system_template_link';
  }

  /**
   * The local id of a package node or edge: the one it was recognised as (merge), else a new one. It is
   * linked to the package sources imported or recognised that it came from.
   */
  private place(
    item: { key: string; iri: string; source_keys: string[] },
    known: Map<string, string>,
    ids: Map<string, string>,
    newId: () => string,
    link: (id: string, sourceId: string) => void,
  ): { id: string; existing: boolean } {
    const existing = known.get(item.iri);
    const id = existing ?? newId();
    ids.set(item.key, id);
    for (const key of item.source_keys) {
      const sourceId = this.sourceIds.get(key);
      if (sourceId) link(id, sourceId);
    }
    return { id, existing: existing !== undefined };
  }

  private sourceIdOf(key: string | null): string | null {
    return key ? (this.sourceIds.get(key) ?? null) : null;
  }

  async nodes(): Promise<void> {
    const list = this.content.nodes;
    const known = await this.existing(
      'graph_nodes',
      'node',
      list.map((node) => node.iri),
    );
    let created: NewNode[] = [];
    let newTemplates: NewTemplate[] = [];
    let links: NodeSourceLink[] = [];
    let vectors: { nodeId: string; model: string; vector: Float32Array }[] = [];
    const updated: { id: string; node: CcxNode }[] = [];
    const tagIds = await this.nodeTagIds(list);
    const tagLinks: { node_id: string; tag_id: string }[] = [];
    const model = this.content.node_vector_model;
    const restorable = model !== null && this.vectorRestorable(model.model, model.dimensions);
    // Written a batch at a time, so rows for the whole package are never held at once.
    const flush = async () => {
      await insertTemplates(this.trx, newTemplates);
      await insertNodes(this.trx, created);
      await insertNodeVectors(this.trx, vectors);
      await linkNodeSources(this.trx, links);
      for (const row of created) this.outcome.nodesCreated.push(row.id);
      this.stats.nodes_imported += created.length;
      this.stats.embeddings_restored += vectors.length;
      [created, newTemplates, links, vectors] = [[], [], [], []];
    };
    for (const node of list) {
      if (this.nodeIds.has(node.key)) {
        this.warn(`Node '${node.key}' appears twice in the package; the second is skipped`);
        this.stats.nodes_skipped += 1;
        continue;
      }
      const { id, existing } = this.place(node, known, this.nodeIds, newNodeId, (nodeId, sourceId) =>
        links.push({ node_id: nodeId, source_id: sourceId }),
      );
      // A node recognised by a merge gains the package's tags beside its own.
      for (const tag of node.tags ?? []) tagLinks.push({ node_id: id, tag_id: tagIds.get(nodeTagKey(tag.name))! });
      if (existing) {
        updated.push({ id, node });
        continue;
      }
      created.push({
        id,
        template_id: this.templateFor('node', node.template_key, node.template_name, newTemplates),
        label: node.label,
        properties: node.properties,
        position_x: node.position?.x ?? null,
        position_y: node.position?.y ?? null,
        source_id: this.sourceIdOf(node.primary_source_key),
        ccx_iri: node.iri,
        name_key: node.name_key,
        extracted: node.extracted,
        created_at: node.created_at ?? now(),
        updated_at: node.updated_at ?? now(),
        embedding: restorable && node.embedding ? JSON.stringify(node.embedding) : null,
      });
      if (restorable && node.embedding?.length === model.dimensions) {
        vectors.push({ nodeId: id, model: model.model, vector: Float32Array.from(node.embedding) });
      } else this.stats.embeddings_pending += 1;
      if (created.length >= flushRows) await flush();
    }
    await flush();
    await insertRows(this.trx, 'node_tag_links', ['node_id', 'tag_id'], tagLinks, 'INSERT OR IGNORE');
    await rewriteNodes(
      this.trx,
      updated.map(({ id, node }) => ({ id, label: node.label, properties: node.properties })),
      now(),
      { relabel: true },
    );
    this.stats.nodes_updated = updated.length;
  }

  async edges(): Promise<void> {
    const list = this.content.edges;
    const known = await this.existing(
      'graph_edges',
      'rel',
      list.map((edge) => edge.iri),
    );
    let created: NewEdge[] = [];
    let links: EdgeSourceLink[] = [];
    const updated: { id: string; edge: CcxEdge }[] = [];
    const flush = async () => {
      await insertEdges(this.trx, created);
      await linkEdgeSources(this.trx, links);
      for (const row of created) this.outcome.edgesCreated.push(row.id);
      this.stats.edges_imported += created.length;
      [created, links] = [[], []];
    };
    const placed = list.map((edge) => ({
      edge,
      source: this.nodeIds.get(edge.source_node_key),
      target: this.nodeIds.get(edge.target_node_key),
    }));
    const dangling = placed.filter(({ source, target }) => !source || !target).length;
    // In source order, each node's degree update and its run of the source index land on pages just touched.
    const ordered = placed
      .filter(({ source, target }) => source && target)
      .sort((a, b) => (a.source! < b.source! ? -1 : 1));
    for (const { edge, source, target } of ordered) {
      if (this.edgeIds.has(edge.key)) continue;
      const { id, existing } = this.place(edge, known, this.edgeIds, newEdgeId, (edgeId, sourceId) =>
        links.push({ edge_id: edgeId, source_id: sourceId }),
      );
      if (existing) {
        updated.push({ id, edge });
        continue;
      }
      created.push({
        id,
        template_id: this.templateFor('edge', edge.template_key, edge.label, []),
        source_node_id: source!,
        target_node_id: target!,
        label: edge.label,
        properties: edge.properties,
        source_id: this.sourceIdOf(edge.primary_source_key),
        ccx_iri: edge.iri,
        extracted: edge.extracted,
        created_at: edge.created_at ?? now(),
        updated_at: edge.updated_at ?? now(),
      });
      if (created.length >= flushRows) await flush();
    }
    await flush();
    if (dangling) this.warn(`${dangling} edge(s) refer to nodes the package does not hold and were skipped`);
    await rewriteEdges(
      this.trx,
      updated.map(({ id, edge }) => ({ id, label: edge.label, properties: edge.properties })),
      now(),
    );
    this.stats.edges_updated = updated.length;
    this.stats.edges_skipped = list.length - this.stats.edges_imported - updated.length;
  }

  async citations(): Promise<void> {
    const entity: Record<string, unknown>[] = [];
    const relationship: Record<string, unknown>[] = [];
    let unresolved = 0;
    const row = (source: CcxSource, citation: CcxCitation, target: string, column: 'entity_uri' | 'edge_id') => ({
      id: shortId('cit'),
      [column]: target,
      source_id: this.sourceIds.get(source.key),
      chunk_id: citation.chunk_key ? (this.chunkIds.get(`${source.key}\0${citation.chunk_key}`) ?? null) : null,
      confidence: citation.confidence,
      extraction_method: citation.extraction_method,
      context_snippet: citation.context_snippet,
      citation_metadata: citation.metadata ? JSON.stringify(citation.metadata) : null,
      created_at: citation.created_at ?? now(),
    });
    for (const source of this.content.sources) {
      if (this.skippedSources.has(source.key)) continue;
      for (const citation of source.citations) {
        const node = this.nodeIds.get(citation.target_key);
        if (node) entity.push(row(source, citation, node, 'entity_uri'));
        else unresolved += 1;
      }
      for (const citation of source.relationship_citations) {
        const edge = this.edgeIds.get(citation.target_key);
        if (edge) relationship.push(row(source, citation, edge, 'edge_id'));
        else unresolved += 1;
      }
    }
    if (unresolved)
      this.warn(`${unresolved} citation(s) refer to nodes or edges the package does not hold and were skipped`);
    const common = [
      'id',
      'source_id',
      'chunk_id',
      'confidence',
      'extraction_method',
      'context_snippet',
      'citation_metadata',
      'created_at',
    ];
    await insertRows(this.trx, 'source_citations', ['entity_uri', ...common], entity);
    await insertRows(this.trx, 'relationship_citations', ['edge_id', ...common], relationship);
    this.stats.citations_imported = entity.length + relationship.length;
  }

  async workflows(): Promise<void> {
    const { workflows: definitions, triggers } = this.content;
    if (!definitions.length && !triggers.length) return;
    const importer = this.options.workflows;
    if (!importer) {
      this.warn(
        `${definitions.length} workflow(s) and ${triggers.length} trigger(s) not imported: workflows are not available in this build`,
      );
      this.stats.workflows_skipped += definitions.length;
      this.stats.triggers_skipped += triggers.length;
      return;
    }
    // The package's workflow ids → the local ones, for the triggers that start them.
    const workflowIds = new Map<string, string>();
    for (const [index, definition] of definitions.entries()) {
      try {
        const { id, created } = await importer.import(this.trx, definition);
        const packageId = (definition.workflow as { id?: unknown } | undefined)?.id;
        if (typeof packageId === 'string') workflowIds.set(packageId, id);
        this.stats[created ? 'workflows_imported' : 'workflows_skipped'] += 1;
      } catch (error) {
        // The workflow's own savepoint rolled back; the rest of the import stands.
        this.stats.workflows_skipped += 1;
        this.warn(`Workflow ${index + 1} of the package was not imported: ${describeError(error)}`);
      }
    }
    for (const trigger of triggers) {
      const workflowId =
        workflowIds.get(trigger.workflow_id) ??
        ((await importer.workflowExists(this.trx, trigger.workflow_id)) ? trigger.workflow_id : undefined);
      if (!workflowId) {
        this.stats.triggers_skipped += 1;
        this.warn(
          `Trigger '${trigger.name}' was not imported: its workflow '${trigger.workflow_id}' is neither in the package nor in this database`,
        );
        continue;
      }
      this.stats[
        (await importer.importTrigger(this.trx, trigger, workflowId)) ? 'triggers_imported' : 'triggers_skipped'
      ] += 1;
    }
  }
}
