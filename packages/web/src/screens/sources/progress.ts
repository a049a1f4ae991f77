import type { SourceResponseBody } from '@rhizome/contracts/api/sources';

export interface SourceProgress {
  /** 0-100 along the whole path from upload to the graph. */
  value: number;
  label: string;
  color: string;
  /** Work is under way (the bar moves). */
  active: boolean;
}

const labels: Record<SourceResponseBody['status'], string> = {
  pending: 'Waiting',
  indexing: 'Reading and indexing',
  vision_pending: 'Reading images',
  indexed: 'Indexed',
  awaiting_confirmation: 'Needs your confirmation',
  extracting: 'Extracting',
  mcp_extracting: 'Extracting',
  extracted: 'Extracted',
  committing: 'Writing to the graph',
  committed: 'In the graph',
  error: 'Failed',
};

const positions: Record<SourceResponseBody['status'], number> = {
  pending: 4,
  indexing: 20,
  vision_pending: 25,
  indexed: 40,
  awaiting_confirmation: 40,
  extracting: 55,
  mcp_extracting: 55,
  extracted: 88,
  committing: 94,
  committed: 100,
  error: 100,
};

/** Where a source stands, as one bar: reading, indexing, extraction, commit. */
export function progressOf(source: SourceResponseBody): SourceProgress {
  const { status } = source;
  const label = labels[status];
  if (status === 'error') return { value: 100, label, color: 'red', active: false };
  if (status === 'committed' || (status === 'indexed' && !source.extract_entities))
    return {
      value: 100,
      label: status === 'indexed' ? 'Indexed (no extraction)' : label,
      color: 'teal',
      active: false,
    };
  if (status === 'awaiting_confirmation') return { value: positions[status], label, color: 'yellow', active: false };
  const extracting = status === 'extracting' || status === 'mcp_extracting';
  // "Extracting group 3 of 10" style step texts carry the extraction's own progress.
  const fraction = extracting ? /(\d+)\s*(?:of|\/)\s*(\d+)/.exec(source.step_description ?? '') : null;
  const value = fraction
    ? 45 + Math.round((40 * Number(fraction[1])) / Math.max(1, Number(fraction[2])))
    : positions[status];
  return { value, label, color: source.paused ? 'gray' : 'blue', active: !source.paused };
}

export const statusColors: Record<SourceResponseBody['status'], string> = {
  pending: 'gray',
  indexing: 'blue',
  vision_pending: 'blue',
  indexed: 'cyan',
  awaiting_confirmation: 'yellow',
  extracting: 'blue',
  mcp_extracting: 'blue',
  extracted: 'indigo',
  committing: 'indigo',
  committed: 'teal',
  error: 'red',
};

export const statusLabel = (status: SourceResponseBody['status']) => labels[status];
