import { digestMatches, digestsOf } from './checksums.ts';
import { invalidPackage } from './errors.ts';
import {
  isoDate,
  numberOrNull,
  objectOrNull,
  stringOrNull,
  type CcxChunk,
  type CcxCitation,
  type CcxContent,
  type CcxEdge,
  type CcxNode,
  type CcxSource,
  type CcxTemplate,
} from './model.ts';
import { parseJson } from './reader-v2.ts';
import { checkName, type ZipArchive } from './zip-reader.ts';

/**
 * Reads the CCX 3.0 container (docs/decisions/0014-ccx-packages.md): a stored `mimetype` first, a manifest that passes the
 * schema's required fields, both checksums of every declared graph and asset, a bundled local
 * `@context` only (a remote context or `@import` anywhere is refused), JSON-LD graphs mapped to nodes
 * and edges, and `sources.jsonl` with inline chunks or selectors into a content-addressed text asset.
 */

export const ccx3Mimetype = 'application/vnd.ccx+zip';
const semver = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const contextPath = 'context.jsonld';

interface Declared {
  path: string;
  sha256: string;
  sha512: string;
}

export function readCcx3(archive: ZipArchive, manifest: Record<string, unknown>): CcxContent {
  checkMimetype(archive);
  const warnings: string[] = [];
  const { graphs, assets, signatures } = checkManifest(manifest);
  for (const file of [...graphs, ...assets]) verify(archive, file);
  for (const signature of signatures) {
    if (!archive.get(signature))
      throw invalidPackage(`the declared signature '${signature}' is missing from the archive`);
  }
  if (signatures.length) warnings.push('The package signature was not verified (signature checks are not supported)');
  const context = archive.get(contextPath);
  if (!context) throw invalidPackage(`'${contextPath}' is missing`);
  checkLocalContexts(parseJson(archive.text(context), contextPath), contextPath);

  const graphDocuments = new Map<string, Record<string, unknown>>();
  for (const graph of graphs) {
    const document = objectOrNull(parseJson(archive.text(archive.get(graph.path)!), graph.path));
    if (!document) throw invalidPackage(`'${graph.path}' must be a JSON-LD object`);
    checkLocalContexts(document, graph.path);
    graphDocuments.set(`${graph.namespace}.${graph.name}`, document);
  }
  const declared = new Set([
    'mimetype',
    'manifest.json',
    contextPath,
    ...graphs.map((graph) => graph.path),
    ...assets.map((asset) => asset.path),
    ...signatures,
  ]);
  for (const entry of archive.entries)
    if (!declared.has(entry.name)) warnings.push(`Ignored '${entry.name}': not declared in the manifest`);

  const knowledge = readGraph(graphDocuments.get('ccx.knowledge')!, warnings);
  const templates = readTemplateGraph(graphDocuments.get('chaoscypher.templates'));
  for (const key of graphDocuments.keys()) {
    if (key !== 'ccx.knowledge' && key !== 'chaoscypher.templates')
      warnings.push(`Named graph '${key}' is not imported (unknown to Rhizome)`);
  }
  const sourcesAsset = assets.find((asset) => asset.path === 'sources.jsonl');
  const sources = sourcesAsset
    ? readSourceRecords(
        archive,
        archive.text(archive.get('sources.jsonl')!),
        new Set(assets.map((asset) => asset.path)),
      )
    : [];
  if (Array.isArray(manifest.embeddings) && manifest.embeddings.length)
    warnings.push('Embedding sidecars are not read; the imported items are embedded again in the background');
  return {
    info: {
      ccx_version: String(manifest.ccx_version),
      name: String(manifest.name),
      package_version: String(manifest.package_version),
      license: stringOrNull(manifest.license),
    },
    templates,
    nodes: knowledge.nodes,
    edges: knowledge.edges,
    sources,
    workflows: [],
    triggers: [],
    node_vector_model: null,
    warnings,
  };
}

function checkMimetype(archive: ZipArchive): void {
  const first = archive.entries[0];
  const mimetype = archive.get('mimetype');
  if (!mimetype) throw invalidPackage('the `mimetype` entry is missing');
  if (first !== mimetype || mimetype.localHeaderOffset !== 0)
    throw invalidPackage('the `mimetype` entry must be the first entry of the archive');
  if (mimetype.method !== 0) throw invalidPackage('the `mimetype` entry must be stored uncompressed');
  if (archive.text(mimetype) !== ccx3Mimetype)
    throw invalidPackage(`the \`mimetype\` entry must read '${ccx3Mimetype}'`);
}

function checkManifest(manifest: Record<string, unknown>): {
  graphs: (Declared & { namespace: string; name: string })[];
  assets: Declared[];
  signatures: string[];
} {
  for (const field of ['name', 'package_version'] as const) {
    if (typeof manifest[field] !== 'string' || !manifest[field])
      throw invalidPackage(`manifest.json: the required field \`${field}\` is missing`);
  }
  if (!semver.test(manifest.package_version as string))
    throw invalidPackage('manifest.json: `package_version` must be a semantic version');
  if (!Array.isArray(manifest.graphs) || manifest.graphs.length === 0)
    throw invalidPackage('manifest.json: the required list `graphs` is missing or empty');
  const declared = (item: unknown, where: string): Declared => {
    const object = objectOrNull(item);
    if (!object) throw invalidPackage(`manifest.json: ${where} must be an object`);
    for (const field of ['path', 'media_type', 'sha256', 'sha512']) {
      if (typeof object[field] !== 'string' || !object[field])
        throw invalidPackage(`manifest.json: ${where} has no \`${field}\``);
    }
    checkName(object.path as string);
    return { path: object.path as string, sha256: object.sha256 as string, sha512: object.sha512 as string };
  };
  const graphs = manifest.graphs.map((item, index) => {
    const file = declared(item, `graphs[${index}]`);
    const object = item as Record<string, unknown>;
    if (typeof object.namespace !== 'string' || typeof object.name !== 'string')
      throw invalidPackage(`manifest.json: graphs[${index}] needs \`namespace\` and \`name\``);
    return { ...file, namespace: object.namespace, name: object.name, role: object.role };
  });
  const defaults = graphs.filter((graph) => graph.role === 'default');
  if (defaults.length !== 1 || defaults[0].namespace !== 'ccx' || defaults[0].name !== 'knowledge') {
    throw invalidPackage('manifest.json: exactly one default graph, ccx/knowledge, is required');
  }
  if (manifest.assets !== undefined && !Array.isArray(manifest.assets))
    throw invalidPackage('manifest.json: `assets` must be a list');
  const assets = ((manifest.assets as unknown[] | undefined) ?? []).map((item, index) =>
    declared(item, `assets[${index}]`),
  );
  if (manifest.signatures !== undefined && !Array.isArray(manifest.signatures))
    throw invalidPackage('manifest.json: `signatures` must be a list');
  const signatures = ((manifest.signatures as unknown[] | undefined) ?? []).map((item, index) => {
    const path = stringOrNull(objectOrNull(item)?.path);
    if (!path) throw invalidPackage(`manifest.json: signatures[${index}] has no \`path\``);
    checkName(path);
    return path;
  });
  return { graphs, assets, signatures };
}

function verify(archive: ZipArchive, file: Declared): void {
  const entry = archive.get(file.path);
  if (!entry) throw invalidPackage(`'${file.path}' is declared in the manifest but missing from the archive`);
  const actual = digestsOf(archive.read(entry));
  if (!digestMatches(file.sha256, actual.sha256) || !digestMatches(file.sha512, actual.sha512))
    throw invalidPackage(`checksum mismatch for '${file.path}'`);
}

/** Every `@context` in the document must be inline: a string (a URL) or an `@import` would fetch from elsewhere. */
function checkLocalContexts(document: unknown, path: string): void {
  const root = objectOrNull(document);
  if (!root) throw invalidPackage(`'${path}' must be a JSON-LD object`);
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    const object = objectOrNull(value);
    if (!object) return;
    for (const [key, child] of Object.entries(object)) {
      if (key === '@context') checkContext(child, path);
      else if (key === '@import')
        throw invalidPackage(`'${path}' uses \`@import\`; only the bundled local context is allowed`);
      else visit(child);
    }
  };
  visit(root);
}

function checkContext(context: unknown, path: string): void {
  if (context === null) return;
  if (typeof context === 'string')
    throw invalidPackage(
      `'${path}' refers to a remote @context (${context.slice(0, 200)}); only the bundled local context is allowed`,
    );
  if (Array.isArray(context)) return context.forEach((item) => checkContext(item, path));
  const object = objectOrNull(context);
  if (!object) throw invalidPackage(`'${path}' has an invalid @context`);
  if ('@import' in object)
    throw invalidPackage(`'${path}' uses \`@import\`; only the bundled local context is allowed`);
  for (const value of Object.values(object)) {
    const definition = objectOrNull(value);
    if (definition && '@context' in definition) checkContext(definition['@context'], path);
  }
}

const relationshipTypes = new Set(['ccx:Relationship', 'Relationship', 'https://w3id.org/ccx/Relationship']);
const reserved = new Set(['@id', '@type', '@context', 'name']);

function types(item: Record<string, unknown>): string[] {
  const value = item['@type'];
  return (Array.isArray(value) ? value : [value]).filter((entry): entry is string => typeof entry === 'string');
}

function iriOf(value: unknown): string | null {
  return stringOrNull(objectOrNull(value)?.['@id']) ?? stringOrNull(value);
}

function references(value: unknown): string[] | null {
  const items = Array.isArray(value) ? value : [value];
  if (!items.length) return null;
  const iris = items.map((item) => {
    const object = objectOrNull(item);
    return object && Object.keys(object).length === 1 ? stringOrNull(object['@id']) : null;
  });
  return iris.every((iri): iri is string => iri !== null) ? iris : null;
}

/** Nodes are `@graph` members with an `@id`; relationships are `ccx:Relationship` members or properties whose values are `{"@id"}` references. */
function readGraph(document: Record<string, unknown>, warnings: string[]): { nodes: CcxNode[]; edges: CcxEdge[] } {
  const members = document['@graph'];
  if (!Array.isArray(members)) throw invalidPackage("'knowledge.jsonld': the list `@graph` is required");
  const nodes: CcxNode[] = [];
  const edges: CcxEdge[] = [];
  const plainEdge = (subject: string, label: string, object: string, index: number) => {
    edges.push({
      key: `${subject} ${label} ${object}`,
      iri: `${subject}#${encodeURIComponent(label)}-${index}`,
      template_key: null,
      source_node_key: subject,
      target_node_key: object,
      label,
      properties: {},
      source_keys: [],
      primary_source_key: null,
      extracted: false,
      created_at: null,
      updated_at: null,
    });
  };
  members.forEach((member, index) => {
    const item = objectOrNull(member);
    const iri = stringOrNull(item?.['@id']);
    if (!item || !iri) throw invalidPackage(`'knowledge.jsonld': @graph[${index}] has no \`@id\``);
    if (types(item).some((type) => relationshipTypes.has(type))) {
      const subject = iriOf(item['ccx:subject']);
      const object = iriOf(item['ccx:object']);
      if (!subject || !object)
        throw invalidPackage(`'knowledge.jsonld': relationship '${iri}' needs ccx:subject and ccx:object`);
      const properties = Object.fromEntries(
        Object.entries(item).filter(([key]) => !key.startsWith('@') && !key.startsWith('ccx:')),
      );
      edges.push({
        key: iri,
        iri,
        template_key: iriOf(item['ccx:relationshipTemplate']),
        source_node_key: subject,
        target_node_key: object,
        label: stringOrNull(item['ccx:predicate']) ?? 'related_to',
        properties,
        source_keys: [],
        primary_source_key: null,
        extracted: false,
        created_at: isoDate(item.created_at),
        updated_at: isoDate(item.updated_at),
      });
      return;
    }
    const properties: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(item)) {
      if (reserved.has(key)) continue;
      const targets = references(value);
      if (targets) targets.forEach((target, position) => plainEdge(iri, key, target, position));
      else properties[key] = value;
    }
    const [type] = types(item);
    nodes.push({
      key: iri,
      iri,
      label: stringOrNull(item.name) ?? iri.slice(Math.max(iri.lastIndexOf('/'), iri.lastIndexOf(':')) + 1),
      template_key: null,
      template_name: type ? type.slice(type.lastIndexOf(':') + 1) : null,
      properties,
      position: null,
      embedding: null,
      source_keys: [],
      primary_source_key: null,
      extracted: false,
      name_key: null,
      created_at: null,
      updated_at: null,
    });
  });
  const known = new Set(nodes.map((node) => node.iri));
  const dangling = edges.filter((edge) => !known.has(edge.source_node_key) || !known.has(edge.target_node_key));
  if (dangling.length)
    warnings.push(
      `${dangling.length} relationship(s) refer to entities the package does not define and are not imported`,
    );
  return { nodes, edges: edges.filter((edge) => known.has(edge.source_node_key) && known.has(edge.target_node_key)) };
}

function readTemplateGraph(document: Record<string, unknown> | undefined): CcxTemplate[] {
  if (!document) return [];
  const members = Array.isArray(document['@graph']) ? document['@graph'] : [];
  return members.flatMap((member): CcxTemplate[] => {
    const item = objectOrNull(member);
    const iri = stringOrNull(item?.['@id']);
    const name = stringOrNull(item?.name);
    if (!item || !iri || !name) return [];
    return [
      {
        key: iri,
        iri,
        name,
        template_type: item.template_type === 'edge' ? 'edge' : 'node',
        description: stringOrNull(item.description),
        icon: stringOrNull(item.icon),
        color: stringOrNull(item.color),
        properties: Array.isArray(item.properties) ? item.properties : [],
        source_key: null,
      },
    ];
  });
}

/** `sources.jsonl`: Source records, then Chunk records whose text is inline or a selector into the source's declared text asset. */
function readSourceRecords(archive: ZipArchive, text: string, declaredAssets: Set<string>): CcxSource[] {
  const sources = new Map<string, CcxSource>();
  const texts = new Map<string, string>();
  const chunkRecords: { item: Record<string, unknown>; where: string }[] = [];
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    const where = `sources.jsonl line ${index + 1}`;
    const item = objectOrNull(parseJson(line, where));
    const iri = stringOrNull(item?.['@id']);
    if (!item || !iri) throw invalidPackage(`${where} has no \`@id\``);
    const kind = types(item).map((type) => type.slice(type.lastIndexOf(':') + 1));
    if (kind.includes('Chunk')) chunkRecords.push({ item, where });
    else if (kind.includes('Source')) {
      const asset = stringOrNull(item.text);
      if (asset) {
        if (!declaredAssets.has(asset) || !archive.get(asset))
          throw invalidPackage(`${where}: the text asset '${asset}' is not a declared asset of the package`);
        texts.set(iri, archive.text(archive.get(asset)!));
      }
      const keywords = Array.isArray(item.keywords)
        ? item.keywords.filter((keyword): keyword is string => typeof keyword === 'string')
        : [];
      sources.set(iri, {
        key: iri,
        iri,
        title: stringOrNull(item.title),
        filename: null,
        source_type: 'text',
        origin_url: stringOrNull(item.url) ?? null,
        status: 'committed',
        extraction_domain: stringOrNull(item.extractionDomain),
        metadata: Object.fromEntries(
          Object.entries(item).filter(
            ([key]) => !key.startsWith('@') && !['title', 'text', 'keywords', 'extractionDomain'].includes(key),
          ),
        ),
        created_at: null,
        updated_at: null,
        chunks: [],
        citations: [],
        relationship_citations: [],
        tags: keywords.map((name) => ({ name, color: null, description: null })),
      });
    } else throw invalidPackage(`${where}: unknown record type '${kind.join(', ') || 'none'}'`);
  });
  for (const { item, where } of chunkRecords) {
    const iri = item['@id'] as string;
    const sourceIri = iriOf(item.source) ?? iri.split('#')[0];
    const source = sources.get(sourceIri);
    if (!source) throw invalidPackage(`${where}: the chunk's source '${sourceIri}' is not in the package`);
    const chunk = chunkOf(item, where, texts.get(sourceIri), source.chunks.length);
    source.chunks.push(chunk);
    const citations = Array.isArray(item['ccx:citation']) ? item['ccx:citation'] : [];
    for (const entry of citations) {
      const citation = objectOrNull(entry);
      const target = iriOf(citation?.['ccx:citation']);
      if (!citation || !target) continue;
      const cited: CcxCitation = {
        target_key: target,
        chunk_key: chunk.key,
        confidence: numberOrNull(citation['ccx:confidence']) ?? 1,
        extraction_method: stringOrNull(citation['ccx:extractionMethod']) ?? 'import',
        context_snippet: null,
        metadata: null,
        created_at: null,
      };
      source.citations.push(cited);
    }
  }
  return [...sources.values()];
}

function chunkOf(
  item: Record<string, unknown>,
  where: string,
  sourceText: string | undefined,
  position: number,
): CcxChunk {
  const iri = item['@id'] as string;
  let content = stringOrNull(item.content);
  const selector = objectOrNull(item.selector);
  let start: number | null = null;
  let end: number | null = null;
  if (content === null) {
    start = numberOrNull(selector?.start);
    end = numberOrNull(selector?.end);
    if (!selector || selector.type !== 'TextPositionSelector' || start === null || end === null)
      throw invalidPackage(`${where}: a chunk needs inline \`content\` or a TextPositionSelector`);
    if (sourceText === undefined)
      throw invalidPackage(`${where}: the chunk's selector points into a source without a text asset`);
    if (start < 0 || end < start || end > sourceText.length)
      throw invalidPackage(`${where}: the selector ${start}-${end} lies outside the source text`);
    content = sourceText.slice(start, end);
  }
  const index = /#chunk-(\d+)$/.exec(iri);
  return {
    key: iri,
    chunk_index: index ? Number(index[1]) - 1 : position,
    content,
    page_number: numberOrNull(item.page),
    section: stringOrNull(item.section),
    metadata: null,
    start_offset: start,
    end_offset: end,
    created_at: null,
    embedding: null,
  };
}
