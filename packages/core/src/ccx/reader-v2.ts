import { digestMatches, digestsOf } from './checksums.ts';
import { domainsPath, readDomainsPart } from './domains-part.ts';
import { invalidPackage } from './errors.ts';
import { Fields } from './fields.ts';
import { dataFiles, manifestPath, nodeIdOfEntityUri, previewPath, readmePath, type DataFileType } from './format-v2.ts';
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
  type CcxTag,
  type CcxTemplate,
} from './model.ts';
import { readTriggers, workflowProblems } from './workflows.ts';
import { checkName, type ZipArchive } from './zip-reader.ts';

/**
 * Reads a CCX 2.0 package without the earlier readers' defects (docs/decisions/0014-ccx-packages.md): the manifest
 * is required and every data file must be covered by a checksum that matches (the writer's
 * `contents[].checksum_*` and the old reader's `content_files[].sha*`, base64 or hex), and every data
 * file must parse to the documented shape, all before anything is written.
 */

interface DeclaredFile {
  path: string;
  sha256: string | null;
  sha512: string | null;
  size: number | null;
}

export function readCcx2(archive: ZipArchive, manifest: Record<string, unknown>): CcxContent {
  const warnings: string[] = [];
  const verified = verifyDeclaredFiles(archive, declaredFiles(manifest));
  const dataPaths = new Set<string>(Object.values(dataFiles).map((file) => file.path));
  for (const entry of archive.entries) {
    if (
      entry.name === manifestPath ||
      entry.name === readmePath ||
      entry.name === previewPath ||
      entry.name === domainsPath ||
      dataPaths.has(entry.name)
    )
      continue;
    warnings.push(`Ignored '${entry.name}': not part of a CCX 2.0 package Rhizome reads`);
  }
  const name = stringOrNull(manifest.name) ?? 'unnamed';
  // Each data file is inflated once: its bytes were checked against the manifest, then parsed and let go.
  const text = (type: DataFileType) => {
    const data = verified.get(dataFiles[type].path);
    verified.delete(dataFiles[type].path);
    return data ? data.toString('utf8') : null;
  };
  // null stands for a file the package does not hold; a file holding JSON null is refused as any non-object is.
  const json = (type: DataFileType) => {
    const data = text(type);
    if (data === null) return null;
    const document = objectOrNull(parseJson(data, dataFiles[type].path));
    if (!document) throw invalidPackage(`'${dataFiles[type].path}' must be a JSON object`);
    return document;
  };
  const templates = readTemplates(json('templates'), name);
  const knowledge = readKnowledge(json('knowledge'), name, warnings);
  const workflowsDocument = json('workflows');
  const workflows = readWorkflows(workflowsDocument);
  const triggers =
    workflowsDocument === null ? [] : readTriggers(listOf(workflowsDocument, 'triggers', dataFiles.workflows.path));
  const sourcesText = text('sources');
  const sources = sourcesText === null ? [] : readSources(sourcesText, name);
  const domains = readDomainsPart(verified.get(domainsPath), warnings);
  const embeddings = objectOrNull(objectOrNull(manifest.knowledge_stats)?.embeddings);
  const model = stringOrNull(embeddings?.model_name);
  const dimensions =
    numberOrNull(embeddings?.dimensions) ?? knowledge.nodes.find((node) => node.embedding)?.embedding?.length ?? null;
  return {
    info: {
      ccx_version: String(manifest.ccx_version),
      name,
      package_version: stringOrNull(manifest.package_version) ?? '1.0.0',
      license: stringOrNull(manifest.license),
    },
    templates,
    nodes: knowledge.nodes,
    edges: knowledge.edges,
    sources,
    workflows,
    triggers,
    node_vector_model:
      model && dimensions && knowledge.nodes.some((node) => node.embedding) ? { model, dimensions } : null,
    domains,
    warnings,
  };
}

function declaredFiles(manifest: Record<string, unknown>): DeclaredFile[] {
  const contents = manifest.contents ?? manifest.content_files;
  if (contents === undefined) throw invalidPackage('manifest.json lists no checksummed contents (`contents`)');
  if (!Array.isArray(contents)) throw invalidPackage('manifest.json `contents` must be a list');
  return contents.map((item, index) => {
    const file = objectOrNull(item);
    const path = stringOrNull(file?.path) ?? stringOrNull(file?.filename);
    if (!file || !path) throw invalidPackage(`manifest.json contents[${index}] has no path`);
    const sha256 = stringOrNull(file.checksum_sha256) ?? stringOrNull(file.sha256);
    const sha512 = stringOrNull(file.checksum_sha512) ?? stringOrNull(file.sha512);
    if (!sha256 && !sha512) throw invalidPackage(`manifest.json contents[${index}] ('${path}') has no checksum`);
    return { path, sha256, sha512, size: numberOrNull(file.file_size_bytes) };
  });
}

/** Checks every declared file against its size and digests; returns the data files' bytes (the only copy read). */
function verifyDeclaredFiles(archive: ZipArchive, declared: DeclaredFile[]): Map<string, Buffer> {
  const dataPaths = new Set<string>(Object.values(dataFiles).map((file) => file.path));
  const verified = new Map<string, Buffer>();
  const covered = new Set<string>();
  for (const file of declared) {
    checkName(file.path);
    const entry = archive.get(file.path);
    if (!entry) throw invalidPackage(`'${file.path}' is listed in the manifest but missing from the archive`);
    const data = archive.read(entry);
    if (file.size !== null && file.size !== data.length)
      throw invalidPackage(`'${file.path}' has ${data.length} bytes, the manifest says ${file.size}`);
    const actual = digestsOf(data);
    if (
      (file.sha256 && !digestMatches(file.sha256, actual.sha256)) ||
      (file.sha512 && !digestMatches(file.sha512, actual.sha512))
    ) {
      throw invalidPackage(`checksum mismatch for '${file.path}'`);
    }
    covered.add(file.path);
    if (dataPaths.has(file.path) || file.path === domainsPath) verified.set(file.path, data);
  }
  for (const path of [...Object.values(dataFiles).map((file) => file.path), previewPath, domainsPath]) {
    if (archive.get(path) && !covered.has(path))
      throw invalidPackage(`'${path}' is not covered by a checksum in the manifest`);
  }
  return verified;
}

export function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidPackage(`'${path}' is not valid JSON (${(error as Error).message})`);
  }
}

function listOf(document: unknown, key: string, path: string, { required = false } = {}): Record<string, unknown>[] {
  const container = objectOrNull(document);
  if (!container) throw invalidPackage(`'${path}' must be a JSON object`);
  if (required && (container[key] === undefined || container[key] === null))
    throw invalidPackage(`'${path}' has no list \`${key}\``);
  const list = container[key] ?? [];
  if (!Array.isArray(list)) throw invalidPackage(`'${path}': \`${key}\` must be a list`);
  return list.map((item, index) => {
    const object = objectOrNull(item);
    if (!object) throw invalidPackage(`'${path}': ${key}[${index}] must be an object`);
    return object;
  });
}

function requiredString(item: Record<string, unknown>, field: string, where: string): string {
  const value = item[field];
  if (typeof value !== 'string' || !value) throw invalidPackage(`${where} has no \`${field}\``);
  return value;
}

function keyList(keys: string[] | null, fallback: string | null): string[] {
  return keys?.length ? keys : fallback ? [fallback] : [];
}

function readTemplates(document: unknown, name: string): CcxTemplate[] {
  if (document === null) return [];
  return listOf(document, 'templates', dataFiles.templates.path).map((item, index) => {
    const where = `templates.jsonld: templates[${index}]`;
    const key = requiredString(item, 'id', where);
    const type = item.template_type ?? 'node';
    if (type !== 'node' && type !== 'edge')
      throw invalidPackage(`${where} has template_type '${String(type)}'; expected node or edge`);
    if (item.properties !== undefined && !Array.isArray(item.properties))
      throw invalidPackage(`${where}: properties must be a list`);
    return {
      key,
      iri: stringOrNull(item.ccx_iri) ?? `urn:ccx:${name}:template/${key}`,
      name: requiredString(item, 'name', where),
      template_type: type,
      description: stringOrNull(item.description),
      icon: stringOrNull(item.icon),
      color: stringOrNull(item.color),
      properties: (item.properties as unknown[] | undefined) ?? [],
      source_key: stringOrNull(item.source_id),
    };
  });
}

const knowledgeMembers = new Set(['nodes', 'edges']);

/** `{"nodes": [...], "edges": [...]}`, both lists required, every member of a node or edge of its documented type. */
function readKnowledge(
  document: Record<string, unknown> | null,
  name: string,
  warnings: string[],
): { nodes: CcxNode[]; edges: CcxEdge[] } {
  if (document === null) return { nodes: [], edges: [] };
  const path = dataFiles.knowledge.path;
  const unknown = Object.keys(document).filter((key) => !knowledgeMembers.has(key));
  if (unknown.length) warnings.push(`Ignored member(s) of ${path}: ${unknown.join(', ')}`);
  const nodes = listOf(document, 'nodes', path, { required: true }).map((item, index): CcxNode => {
    const fields = new Fields(item, `${path}: nodes[${index}]`);
    const key = fields.requiredString('id');
    const primary = fields.string('source_id');
    const embedding = fields.numberList('embedding');
    return {
      key,
      iri: fields.string('ccx_iri') ?? `urn:ccx:${name}:node/${key}`,
      label: fields.string('label') ?? fields.string('name') ?? 'Unnamed Node',
      template_key: fields.string('template_id'),
      template_name: fields.string('template_name') ?? fields.string('entity_type'),
      properties: fields.object('properties') ?? {},
      position: fields.point('position'),
      embedding: embedding?.length ? embedding : null,
      source_keys: keyList(fields.stringList('source_ids'), primary),
      primary_source_key: primary,
      extracted: fields.boolean('extracted') ?? false,
      name_key: fields.string('name_key'),
      tags: readTags(fields.objectList('tags') ?? []),
      created_at: fields.date('created_at'),
      updated_at: fields.date('updated_at'),
    };
  });
  const edges = listOf(document, 'edges', path, { required: true }).map((item, index): CcxEdge => {
    const fields = new Fields(item, `${path}: edges[${index}]`);
    const key = fields.requiredString('id');
    const primary = fields.string('source_id');
    return {
      key,
      iri: fields.string('ccx_iri') ?? `urn:ccx:${name}:rel/${key}`,
      template_key: fields.string('template_id'),
      source_node_key: fields.requiredString('source_node_id'),
      target_node_key: fields.requiredString('target_node_id'),
      label: fields.string('label') ?? 'related_to',
      properties: fields.object('properties') ?? {},
      source_keys: keyList(fields.stringList('source_ids'), primary),
      primary_source_key: primary,
      extracted: fields.boolean('extracted') ?? false,
      created_at: fields.date('created_at'),
      updated_at: fields.date('updated_at'),
    };
  });
  return { nodes, edges };
}

function readWorkflows(document: unknown): Record<string, unknown>[] {
  if (document === null) return [];
  const definitions = listOf(document, 'workflows', dataFiles.workflows.path);
  definitions.forEach((definition, index) => {
    const problems = workflowProblems(definition);
    if (problems.length)
      throw invalidPackage(
        `workflows.jsonld: workflows[${index}] is not a workflow definition (${problems.join('; ')})`,
      );
  });
  return definitions;
}

function readSources(text: string, name: string): CcxSource[] {
  return text.split('\n').flatMap((line, index) => {
    if (!line.trim()) return [];
    const item = objectOrNull(parseJson(line, `sources.jsonl line ${index + 1}`));
    const where = `sources.jsonl line ${index + 1}`;
    if (!item) throw invalidPackage(`${where} must be a JSON object`);
    const key = requiredString(item, 'id', where);
    for (const field of ['chunks', 'citations', 'relationship_citations', 'tags']) {
      if (item[field] !== undefined && item[field] !== null && !Array.isArray(item[field]))
        throw invalidPackage(`${where}: \`${field}\` must be a list`);
    }
    const objects = (field: string) =>
      ((item[field] as unknown[] | undefined) ?? []).map((value, position) => {
        const object = objectOrNull(value);
        if (!object) throw invalidPackage(`${where}: ${field}[${position}] must be an object`);
        return object;
      });
    const chunks = objects('chunks').map((chunk, position) =>
      readChunk(chunk, `${where}: chunks[${position}]`, position),
    );
    const citation =
      (target: string) =>
      (entry: Record<string, unknown>): CcxCitation => ({
        target_key: target,
        chunk_key: stringOrNull(entry.chunk_id),
        confidence: numberOrNull(entry.confidence) ?? 1,
        extraction_method: stringOrNull(entry.extraction_method) ?? 'import',
        context_snippet: stringOrNull(entry.context_snippet),
        metadata: objectOrNull(entry.metadata),
        created_at: isoDate(entry.created_at),
      });
    const source: CcxSource = {
      key,
      iri: stringOrNull(item.ccx_iri) ?? `urn:ccx:${name}:source/${key}`,
      title: stringOrNull(item.title),
      filename: stringOrNull(item.filename),
      source_type: stringOrNull(item.source_type) ?? 'text',
      origin_url: stringOrNull(item.origin_url),
      status: stringOrNull(item.status) ?? 'committed',
      extraction_domain: stringOrNull(item.extraction_domain),
      metadata: objectOrNull(item.metadata) ?? {},
      created_at: isoDate(item.created_at),
      updated_at: isoDate(item.updated_at),
      chunks,
      citations: objects('citations').map((entry, position) =>
        citation(nodeIdOfEntityUri(requiredString(entry, 'entity_uri', `${where}: citations[${position}]`)))(entry),
      ),
      relationship_citations: objects('relationship_citations').map((entry, position) =>
        citation(requiredString(entry, 'edge_id', `${where}: relationship_citations[${position}]`))(entry),
      ),
      tags: readTags(objects('tags')),
    };
    return [source];
  });
}

/** Tags as sources and nodes carry them (`tag_name`, `tag_color`, `tag_description`); one without a name is left out. */
function readTags(entries: Record<string, unknown>[]): CcxTag[] {
  return entries.flatMap((tag) =>
    typeof tag.tag_name === 'string' && tag.tag_name
      ? [{ name: tag.tag_name, color: stringOrNull(tag.tag_color), description: stringOrNull(tag.tag_description) }]
      : [],
  );
}

function readChunk(chunk: Record<string, unknown>, where: string, position: number): CcxChunk {
  const key = requiredString(chunk, 'id', where);
  if (typeof chunk.content !== 'string') throw invalidPackage(`${where} has no \`content\``);
  let embedding: CcxChunk['embedding'] = null;
  if (typeof chunk.embedding === 'string' && chunk.embedding) {
    const bytes = Buffer.from(chunk.embedding, 'base64');
    const dimensions = numberOrNull(chunk.embedding_dimensions) ?? bytes.length / 4;
    if (bytes.length !== dimensions * 4)
      throw invalidPackage(`${where}: the embedding holds ${bytes.length} bytes, not ${dimensions} float32 values`);
    const model = stringOrNull(chunk.embedding_model);
    if (model)
      embedding = {
        model,
        dimensions,
        values: new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)),
      };
  }
  return {
    key,
    chunk_index: numberOrNull(chunk.chunk_index) ?? position,
    content: chunk.content,
    page_number: numberOrNull(chunk.page_number),
    section: stringOrNull(chunk.section),
    metadata: objectOrNull(chunk.metadata),
    start_offset: numberOrNull(chunk.start_offset),
    end_offset: numberOrNull(chunk.end_offset),
    created_at: isoDate(chunk.created_at),
    embedding,
  };
}
