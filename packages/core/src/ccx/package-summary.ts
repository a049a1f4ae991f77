import type { CcxContent, CcxPackageInfo } from './model.ts';

/** What a valid package holds, as checked before anything is queued or written. */
export interface ValidatedCcx extends CcxPackageInfo {
  counts: {
    templates: number;
    nodes: number;
    edges: number;
    sources: number;
    chunks: number;
    workflows: number;
    triggers: number;
  };
  warnings: string[];
}

export function summariseCcx(content: CcxContent): ValidatedCcx {
  return {
    ...content.info,
    counts: {
      templates: content.templates.length,
      nodes: content.nodes.length,
      edges: content.edges.length,
      sources: content.sources.length,
      chunks: content.sources.reduce((sum, source) => sum + source.chunks.length, 0),
      workflows: content.workflows.length,
      triggers: content.triggers.length,
    },
    warnings: content.warnings,
  };
}
