import type { Db } from '../../storage/index.ts';
import { allTemplates, storeTemplateEmbedding } from './repo.ts';
import type { TemplateResponse } from '@rhizome/contracts/api/templates';

/** The embedding port as template embedding needs it. */
export interface TemplateEmbedder {
  model: string;
  embed(texts: string[]): Promise<number[][]>;
}

export interface TemplateEmbeddingResult {
  processed: number;
  skipped: number;
  message: string;
}

/** Regenerates the embedding of every template of a database from its name, description and properties. */
export async function regenerateTemplateEmbeddings(
  db: Db,
  embedder: TemplateEmbedder,
  checkCancelled: () => Promise<void> = async () => {},
  batchSize = 32,
): Promise<TemplateEmbeddingResult> {
  const templates = await allTemplates(db);
  let processed = 0;
  for (let start = 0; start < templates.length; start += batchSize) {
    await checkCancelled();
    const batch = templates.slice(start, start + batchSize);
    const vectors = await embedder.embed(batch.map(templateText));
    if (vectors.length !== batch.length)
      throw new Error(`the embedder returned ${vectors.length} vectors for ${batch.length} texts`);
    for (const [index, template] of batch.entries())
      await storeTemplateEmbedding(db, template.id, vectors[index], embedder.model);
    processed += batch.length;
  }
  return { processed, skipped: 0, message: `embedded ${processed} template(s) with ${embedder.model}` };
}

/** What a template means, as text to embed. */
export function templateText(template: TemplateResponse): string {
  const properties = template.properties.map(
    (property) =>
      `${property.display_name} (${property.property_type})${property.description ? `: ${property.description}` : ''}`,
  );
  return [
    `${template.template_type === 'edge' ? 'Relationship' : 'Entity'} type: ${template.name}`,
    template.description ?? '',
    properties.length ? `Properties: ${properties.join('; ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}
