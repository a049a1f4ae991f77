/** The arrangements the canvas offers; "force" is the physical layout whose positions are saved. */
export const layoutNames = ['force', 'hierarchical', 'radial', 'circular', 'grid', 'sources'] as const;
export type LayoutName = (typeof layoutNames)[number];

export const layoutLabels: Record<LayoutName, string> = {
  force: 'Force',
  hierarchical: 'Hierarchical',
  radial: 'Radial',
  circular: 'Circular',
  grid: 'Grid',
  sources: 'Grouped by source',
};

export const isLayoutName = (value: unknown): value is LayoutName =>
  typeof value === 'string' && (layoutNames as readonly string[]).includes(value);
