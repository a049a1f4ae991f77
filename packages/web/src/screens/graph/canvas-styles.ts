import type { StylesDeclaration } from 'sigma/types';
import type { EdgeAttributes, NodeAttributes } from '../../lib/graph-model.ts';

/** What the view says about one node or edge; sigma re-styles only the items whose state changes. */
export interface NodeViewState {
  isFaded: boolean;
  isSelected: boolean;
}

export interface EdgeViewState {
  isFaded: boolean;
  isOnPath: boolean;
  isBesideSelected: boolean;
}

export const nodeViewDefaults: NodeViewState = { isFaded: false, isSelected: false };
export const edgeViewDefaults: EdgeViewState = { isFaded: false, isOnPath: false, isBesideSelected: false };

export type CanvasStyles = StylesDeclaration<NodeAttributes, EdgeAttributes, NodeViewState, EdgeViewState>;

const light = {
  ink: '#212529',
  paper: '#ffffff',
  fadedNode: '#dee2e6',
  line: '#ced4da',
  fadedLine: '#f1f3f5',
  path: '#e8590c',
};
const dark = {
  ink: '#e9ecef',
  paper: '#25262b',
  fadedNode: '#3b3d45',
  line: '#5c5f66',
  fadedLine: '#2c2e33',
  path: '#ffd43b',
};

/**
 * The canvas look as declarative rules on attributes and item states only: no function values, so sigma
 * knows panning and zooming cannot change an item's look and never re-evaluates the graph during a gesture
 * (a reducer would make it re-style all 20,000 items at each gesture's start and end).
 */
export function canvasStyles(scheme: 'light' | 'dark'): CanvasStyles {
  const colors = scheme === 'dark' ? dark : light;
  return {
    nodes: [
      {
        x: { attribute: 'x' },
        y: { attribute: 'y' },
        size: { attribute: 'size', defaultValue: 4 },
        color: { attribute: 'color', defaultValue: '#868e96' },
        label: { attribute: 'label' },
        labelColor: colors.ink,
        backdropColor: colors.paper,
        backdropShadowColor: 'rgba(0, 0, 0, 0.35)',
        backdropShadowBlur: 8,
        backdropPadding: 4,
        visibility: 'visible',
        labelVisibility: 'auto',
        backdropVisibility: 'hidden',
        depth: 'nodes',
      },
      { whenState: 'isFaded', then: { color: colors.fadedNode, labelVisibility: 'hidden' } },
      { whenState: 'isHighlighted', then: { labelVisibility: 'visible', depth: 'topNodes' } },
      {
        whenState: 'isSelected',
        then: { labelVisibility: 'visible', backdropVisibility: 'visible', depth: 'topNodes' },
      },
      {
        whenState: 'isHovered',
        then: { labelVisibility: 'visible', backdropVisibility: 'visible', depth: 'topNodes' },
      },
      { whenState: 'isHidden', then: { visibility: 'hidden' } },
    ],
    edges: [
      {
        size: { attribute: 'size', defaultValue: 1 },
        color: colors.line,
        visibility: 'visible',
        depth: 'edges',
        // The relationship is written only along the selection's edges and a path: all of them would be noise.
        label: { attribute: 'label' },
        labelVisibility: 'hidden',
        labelColor: colors.ink,
        labelSize: 12,
        labelBackgroundColor: colors.paper,
        labelBackgroundPadding: 2,
      },
      { whenState: 'isFaded', then: { color: colors.fadedLine } },
      { whenState: 'isBesideSelected', then: { labelVisibility: 'visible' } },
      { whenState: 'isOnPath', then: { color: colors.path, size: 3, depth: 'topEdges', labelVisibility: 'visible' } },
      { whenState: 'isHidden', then: { visibility: 'hidden' } },
    ],
  };
}
