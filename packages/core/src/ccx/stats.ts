/**
 * The manifest's statistics objects (the CCX 2.0 manifest, docs/decisions/0014-ccx-packages.md), gathered while the records stream
 * past so nothing has to be held or read twice.
 */

type Row = Record<string, unknown>;

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

class DateRange {
  earliest: string | null = null;
  latest: string | null = null;

  add(value: unknown): void {
    if (typeof value !== 'string') return;
    if (!this.earliest || value < this.earliest) this.earliest = value;
    if (!this.latest || value > this.latest) this.latest = value;
  }

  toJSON() {
    return { earliest: this.earliest, latest: this.latest };
  }
}

export class KnowledgeStatsCollector {
  nodes = 0;
  edges = 0;
  withVectors = 0;
  dimensions: number | null = null;
  private readonly relationshipTypes: Record<string, number> = {};
  private readonly degree = new Map<string, number>();
  private readonly dates = new DateRange();

  addNode(node: Row): void {
    this.nodes += 1;
    this.dates.add(node.created_at);
    if (Array.isArray(node.embedding)) {
      this.withVectors += 1;
      this.dimensions ??= node.embedding.length;
    }
  }

  addEdge(edge: Row): void {
    this.edges += 1;
    this.dates.add(edge.created_at);
    const label = typeof edge.label === 'string' && edge.label ? edge.label : 'Unknown';
    this.relationshipTypes[label] = (this.relationshipTypes[label] ?? 0) + 1;
    for (const end of [edge.source_node_id, edge.target_node_id] as string[])
      this.degree.set(end, (this.degree.get(end) ?? 0) + 1);
  }

  toJSON(embedding: { model: string; provider: string } | null, vectorsIncluded: boolean) {
    const degrees = [...this.degree.values()];
    const model = embedding?.model ?? null;
    return {
      node_count: this.nodes,
      edge_count: this.edges,
      relationship_types: this.relationshipTypes,
      avg_degree: this.nodes ? round(degrees.reduce((sum, value) => sum + value, 0) / this.nodes, 2) : 0,
      max_degree: degrees.reduce((max, value) => Math.max(max, value), 0),
      graph_density: this.nodes > 1 ? round(this.edges / (this.nodes * (this.nodes - 1)), 6) : 0,
      isolated_node_count: Math.max(0, this.nodes - this.degree.size),
      date_range: this.dates.toJSON(),
      embeddings: {
        is_present: this.withVectors > 0,
        vectors_included: vectorsIncluded && this.withVectors > 0,
        node_count: this.withVectors,
        dimensions: this.dimensions,
        model_name: model,
        model_provider: embedding?.provider ?? null,
        total_embeddable_items: this.nodes,
        coverage_pct: this.nodes ? round((100 * this.withVectors) / this.nodes, 2) : 0,
        model_version: model?.includes(':') ? model.slice(model.lastIndexOf(':') + 1) : null,
      },
    };
  }
}

export class SourceStatsCollector {
  sources = 0;
  chunks = 0;
  citations = 0;
  chunksWithEmbeddings = 0;
  contentLength = 0;
  emptyChunks = 0;
  private readonly types: Record<string, number> = {};
  private readonly models = new Set<string>();
  private readonly lengths: number[] = [];
  private readonly dates = new DateRange();
  private confidenceSum = 0;
  private readonly entities = new Set<string>();
  private readonly methods: Record<string, number> = {};
  private indexed = 0;

  add(source: Row): void {
    this.sources += 1;
    const type = String(source.source_type);
    this.types[type] = (this.types[type] ?? 0) + 1;
    this.dates.add(source.created_at);
    if (['indexed', 'committed', 'extracted', 'extracting'].includes(String(source.status))) this.indexed += 1;
    for (const chunk of source.chunks as Row[]) {
      const length = String(chunk.content).length;
      this.chunks += 1;
      this.contentLength += length;
      this.lengths.push(length);
      if (!length) this.emptyChunks += 1;
      if ('embedding' in chunk) {
        this.chunksWithEmbeddings += 1;
        if (typeof chunk.embedding_model === 'string') this.models.add(chunk.embedding_model);
      }
    }
    for (const citation of source.citations as Row[]) {
      this.citations += 1;
      this.confidenceSum += Number(citation.confidence ?? 1);
      this.entities.add(String(citation.entity_uri));
      const method = String(citation.extraction_method);
      this.methods[method] = (this.methods[method] ?? 0) + 1;
    }
  }

  toJSON(vectorsIncluded: boolean) {
    const mean = this.lengths.length ? this.contentLength / this.lengths.length : 0;
    const deviation = this.lengths.length
      ? Math.sqrt(this.lengths.reduce((sum, length) => sum + (length - mean) ** 2, 0) / this.lengths.length)
      : 0;
    const coverage = this.chunks ? round((100 * this.chunksWithEmbeddings) / this.chunks, 2) : 0;
    return {
      active_sources: 0,
      archived_sources: this.sources,
      total_chunks: this.chunks,
      total_citations: this.citations,
      source_types: this.types,
      avg_chunks_per_source: this.sources ? round(this.chunks / this.sources, 2) : 0,
      total_content_length: this.contentLength,
      date_range: this.dates.toJSON(),
      avg_chunk_length: Math.round(mean),
      min_chunk_length: this.lengths.length ? this.lengths.reduce((min, value) => Math.min(min, value)) : 0,
      max_chunk_length: this.lengths.reduce((max, value) => Math.max(max, value), 0),
      chunk_length_std_dev: round(deviation, 2),
      empty_chunk_count: this.emptyChunks,
      chunks_with_embeddings: this.chunksWithEmbeddings,
      embedding_coverage_pct: coverage,
      embedding_models_used: [...this.models],
      vectors_included: vectorsIncluded,
      rag_ready: this.chunks > 0 && coverage === 100 && this.emptyChunks === 0,
      indexing_complete_pct: this.sources ? round((100 * this.indexed) / this.sources, 2) : 0,
      avg_citations_per_source: this.sources ? round(this.citations / this.sources, 2) : 0,
      avg_citation_confidence: this.citations ? round(this.confidenceSum / this.citations, 3) : 0,
      unique_entities_cited: this.entities.size,
      extraction_methods: this.methods,
      chunking_config: null,
    };
  }
}

export function templateStats(templates: Row[]) {
  let most: Row | null = null;
  for (const template of templates)
    if (!most || (template.properties as unknown[]).length > (most.properties as unknown[]).length) most = template;
  const total = templates.reduce((sum, template) => sum + (template.properties as unknown[]).length, 0);
  return {
    avg_properties_per_template: templates.length ? round(total / templates.length, 2) : 0,
    most_complex_template: (most?.name as string | undefined) ?? null,
  };
}
