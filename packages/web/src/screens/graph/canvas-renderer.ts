import Sigma from 'sigma';
import type { RenderParams } from 'sigma/types';
import type { EdgeAttributes, NodeAttributes } from '../../lib/graph-model.ts';
import type { EdgeViewState, NodeViewState } from './canvas-styles.ts';

type Graph = Parameters<Sigma<NodeAttributes, EdgeAttributes>['setGraph']>[0];
type RefreshOptions = NonNullable<Parameters<Sigma<NodeAttributes, EdgeAttributes>['refresh']>[0]>;

/** The parts of sigma (4.0.4) this class reaches past its public surface. */
interface SigmaInternals {
  edgeGroups: { graph: Graph };
  labelRenderer: { labelsDirty: boolean };
  internals?: {
    dragManager: { graph: Graph; session: { allNodes: string[] } | null };
    hoverResolver: { request(): void };
  };
}

/**
 * How long the scene stays still after a move before hover is read back again: between the steps of a wheel
 * zoom or a pan the camera pauses a moment, and a read then makes the page wait for the frame being drawn.
 */
const settleMs = 150;
/**
 * How long a wheel zoom counts as one move after its last step's animation ended. A wheel turned notch by
 * notch lets each step's animation end before the next begins, and sigma would then draw the whole scene
 * (every edge, every label, its picking layer) between two steps: on a software GL that frame costs many
 * moving ones, and the next step waits for it.
 */
const wheelSettleMs = 250;
/**
 * How long after the wheel's last turn hover is read back again. Each read waits for the GPU to finish every
 * frame queued, on a software GL up to seconds while a zoom's frames are queued, and the next turn of the
 * wheel waits behind it: the notches of one zoom may lie further apart than `wheelSettleMs`.
 */
const hoverAfterWheelMs = 700;

/**
 * Sigma, minus the work a moving scene cannot use. On a software GL (no GPU) each of these costs about a frame:
 * - its picking layer (the offscreen copy of the scene that hover and click read back) is not drawn while
 *   the camera moves or a node is dragged; the frame drawn once it stops carries it again, the same way
 *   edges hidden on move come back;
 * - nor read back meanwhile, nor until the scene has been still a moment (`settleMs`): each read makes the
 *   page wait for the GPU to finish every frame queued;
 * - a dragged node is redrawn on its own, where sigma would re-place all the nodes and their labels at each
 *   step of the pointer; all are re-placed once it is dropped;
 * - a wheel zoom stays a move until the wheel has rested a moment (`wheelSettleMs`), not only while one
 *   step's animation runs.
 * And one repair: sigma builds the labels of each depth (the selected entity's above the others) into one
 * buffer, and a frame with nothing changed draws that buffer as it was left, with the last depth's labels
 * only; every frame builds them again here (a frame where nothing changed is rare, and labels are few).
 */
export class CanvasRenderer extends Sigma<NodeAttributes, EdgeAttributes, object, NodeViewState, EdgeViewState> {
  /** When the scene last moved (a frame drawn or hover asked for in motion). */
  private movedAt = 0;
  private settling: number | null = null;
  /** When the wheel last turned, and the direction it turned. */
  private wheelAt = 0;
  private wheelDirection: -1 | 1 = 1;
  private wheelSettled: number | null = null;

  constructor(
    ...args: ConstructorParameters<typeof Sigma<NodeAttributes, EdgeAttributes, object, NodeViewState, EdgeViewState>>
  ) {
    super(...args);
    const resolver = this.hidden().internals!.hoverResolver;
    const request = resolver.request.bind(resolver);
    resolver.request = () => {
      if (this.inMotion()) {
        this.movedAt = performance.now();
        return;
      }
      const wait = Math.max(this.movedAt + settleMs, this.wheelAt + hoverAfterWheelMs) - performance.now();
      if (wait <= 0) return request();
      this.settling ??= window.setTimeout(() => {
        this.settling = null;
        resolver.request();
      }, wait);
    };
    this.getMouseCaptor().on('wheel', (event) => {
      this.wheelAt = performance.now();
      this.wheelDirection = event.delta > 0 ? 1 : -1;
    });
    // A frame between the steps of a wheel zoom is drawn as a moving one; the full frame follows the rest.
    let faked = false;
    this.on('beforeRender', () => {
      this.hidden().labelRenderer.labelsDirty = true;
      const mouse = this.getMouseCaptor();
      faked = mouse.currentWheelDirection === 0 && this.wheelSettling();
      if (faked) mouse.currentWheelDirection = this.wheelDirection;
    });
    this.on('afterRender', () => {
      if (!faked) return;
      faked = false;
      this.getMouseCaptor().currentWheelDirection = 0;
      this.wheelSettled ??= window.setTimeout(
        () => {
          this.wheelSettled = null;
          this.scheduleRender();
        },
        Math.max(0, this.wheelAt + wheelSettleMs - performance.now()),
      );
    });
    this.on('nodeDragEnd', ({ allDraggedNodes }) =>
      this.refresh({ partialGraph: { nodes: allDraggedNodes }, schedule: true }),
    );
  }

  override getRenderParams(): RenderParams {
    const params = super.getRenderParams();
    if (!this.inMotion()) return params;
    this.movedAt = performance.now();
    return { ...params, pickingFrameBuffer: null };
  }

  override kill(): void {
    if (this.settling !== null) window.clearTimeout(this.settling);
    if (this.wheelSettled !== null) window.clearTimeout(this.wheelSettled);
    this.settling = null;
    this.wheelSettled = null;
    super.kill();
  }

  override refresh(options?: RefreshOptions): this {
    // Sigma refreshes before its internals are all made, while it is constructed.
    const dragged = this.hidden().internals?.dragManager.session?.allNodes;
    const nodes = options?.partialGraph?.nodes;
    const onlyDragged =
      dragged && nodes && !options.partialGraph?.edges?.length && nodes.every((node) => dragged.includes(String(node)));
    return super.refresh(onlyDragged ? { ...options, skipIndexation: true } : options);
  }

  /**
   * Sigma keeps the graph it was made with in two helpers and never swaps it: its index of parallel edges
   * (the first edge added to a graph handed over later throws "could not find the edge", and parallel edges
   * are never spread) and its node drag (every drag throws before the node moves). Both are pointed at the
   * new graph before sigma takes it.
   */
  override setGraph(graph: Graph): this {
    const stale = this.hidden();
    stale.edgeGroups.graph = graph;
    stale.internals!.dragManager.graph = graph;
    return super.setGraph(graph);
  }

  /** What sigma itself counts as moving when it hides edges and labels on move, or a node being dragged. */
  private inMotion(): boolean {
    const mouse = this.getMouseCaptor();
    return (
      this.getCamera().isAnimating() ||
      mouse.isMoving ||
      mouse.draggedEvents > 0 ||
      mouse.currentWheelDirection !== 0 ||
      this.wheelSettling() ||
      (this.hidden().internals?.dragManager.session ?? null) !== null
    );
  }

  private wheelSettling(): boolean {
    return performance.now() - this.wheelAt < wheelSettleMs;
  }

  private hidden(): SigmaInternals {
    return this as unknown as SigmaInternals;
  }
}
