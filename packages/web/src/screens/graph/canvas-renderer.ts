import Sigma from 'sigma';
import type { RenderParams } from 'sigma/types';
import type { EdgeAttributes, NodeAttributes } from '../../lib/graph-model.ts';
import type { EdgeViewState, NodeViewState } from './canvas-styles.ts';

/**
 * Sigma, minus its picking layer (the offscreen copy of the scene that hover and click read back) while the
 * camera moves: on a software GL that second pass costs as much as the visible one, and nothing can be
 * hovered or clicked on a moving scene anyway. The frame drawn once the camera stops carries it again, the
 * same way edges hidden on move come back.
 */
export class CanvasRenderer extends Sigma<NodeAttributes, EdgeAttributes, object, NodeViewState, EdgeViewState> {
  override getRenderParams(): RenderParams {
    const params = super.getRenderParams();
    return this.cameraMoves() ? { ...params, pickingFrameBuffer: null } : params;
  }

  /**
   * Sigma (4.0.4) keeps the graph it was made with in two helpers and never swaps it: its index of parallel
   * edges (the first edge added to a graph handed over later throws "could not find the edge", and parallel
   * edges are never spread) and its node drag (every drag throws before the node moves). Both are pointed at
   * the new graph before sigma takes it.
   */
  override setGraph(graph: Parameters<Sigma<NodeAttributes, EdgeAttributes>['setGraph']>[0]): this {
    const stale = this as unknown as {
      edgeGroups: { graph: typeof graph };
      internals: { dragManager: { graph: typeof graph } };
    };
    stale.edgeGroups.graph = graph;
    stale.internals.dragManager.graph = graph;
    return super.setGraph(graph);
  }

  /** What sigma itself counts as moving when it hides edges and labels on move. */
  private cameraMoves(): boolean {
    const mouse = this.getMouseCaptor();
    return (
      this.getCamera().isAnimating() || mouse.isMoving || mouse.draggedEvents > 0 || mouse.currentWheelDirection !== 0
    );
  }
}
