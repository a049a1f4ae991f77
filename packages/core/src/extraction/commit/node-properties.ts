import { mergeAliases } from '../../graph/index.ts';
import { mergeDescriptions } from '../finalize/merge.ts';

/** The properties of an extracted node: the entity's own, plus the extraction's bookkeeping. */
export type NodeProperties = Record<string, unknown> & {
  description?: string;
  aliases?: string[];
  confidence?: number;
};

/**
 * What a node knows after another source names the same entity: aliases united (never the label
 * itself), descriptions merged by the finalisation's rule, the higher confidence, and the new source's
 * properties only where the node has none — a second source adds to a node, it does not overwrite
 * what the first said.
 */
export function mergeNodeProperties(current: NodeProperties, incoming: NodeProperties, label: string): NodeProperties {
  return {
    ...incoming,
    ...current,
    aliases: mergeAliases(label, [...(current.aliases ?? []), ...(incoming.aliases ?? [])]),
    description: mergeDescriptions(String(current.description ?? ''), String(incoming.description ?? '')),
    confidence: Math.max(Number(current.confidence ?? 0), Number(incoming.confidence ?? 0)),
  };
}
