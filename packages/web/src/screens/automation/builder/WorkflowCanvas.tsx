import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { Box, Paper, Text, useComputedColorScheme } from '@mantine/core';
import {
  applyNodeChanges,
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  type Connection,
  type Edge,
  type NodeChange,
  type ReactFlowInstance,
  type XYPosition,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { stepColumns } from '../../../components/DagView.tsx';
import type { Problem } from './draft-problems.ts';
import { StepNode, preview, type StepFlowNode } from './StepNode.tsx';
import { toolDragType, ToolPalette } from './ToolPalette.tsx';
import type { TestRunStep } from './test-run.ts';
import { defaultInput, toolKey, type ToolInfo } from './tool-info.ts';
import { addStep, connect, disconnect, newStep, removeStep, type Draft, type DraftStep } from './workflow-draft.ts';

const nodeTypes = { step: StepNode };
const columnWidth = 250;
const rowHeight = 110;

/** Where steps without a place of their own go: a column per depth, as the read-only diagram draws them. */
function laidOut(draft: Draft): Map<string, XYPosition> {
  const columns = stepColumns(draft);
  const rows = new Map<number, number>();
  return new Map(
    draft.map((step) => {
      const column = columns.get(step.id) ?? 0;
      const row = rows.get(column) ?? 0;
      rows.set(column, row + 1);
      return [step.id, { x: column * columnWidth, y: row * rowHeight }];
    }),
  );
}

export interface CanvasProps {
  draft: Draft;
  tools: Map<string, ToolInfo>;
  problems: Map<string, Problem[]>;
  runs: Map<string, TestRunStep>;
  selected: string | null;
  onSelect: (id: string | null) => void;
  change: (next: (draft: Draft) => Draft, kind?: string) => void;
  onEdge: (edge: { source: string; target: string }) => void;
  /** The step panel, beside the canvas while a step is selected. */
  panel: React.ReactNode;
}

/**
 * The steps as an editable graph: tools dragged in from the palette become steps, a connection from one
 * step to another makes the second run after the first, and a clicked connection opens its condition.
 */
export function WorkflowCanvas({
  draft,
  tools,
  problems,
  runs,
  selected,
  onSelect,
  change,
  onEdge,
  panel,
}: CanvasProps) {
  const scheme = useComputedColorScheme('light');
  const flow = useRef<ReactFlowInstance<StepFlowNode> | null>(null);
  const [positions, setPositions] = useState<Map<string, XYPosition>>(new Map());
  const [nodes, setNodes] = useState<StepFlowNode[]>([]);
  // Fitted once to the steps there are; an empty canvas keeps its scale, so a tool lands where it is dropped.
  const [fitAtStart] = useState(draft.length > 0);

  useEffect(() => {
    const automatic = laidOut(draft);
    setNodes((current) => {
      const previous = new Map(current.map((node) => [node.id, node]));
      return draft.map((step) => {
        const before = previous.get(step.id);
        return {
          ...before,
          id: step.id,
          type: 'step',
          position: positions.get(step.id) ?? before?.position ?? automatic.get(step.id)!,
          selected: step.id === selected,
          ariaLabel: `Step ${step.name}`,
          data: {
            step,
            toolName: tools.get(toolKey(step.tool_type, step.tool_id))?.name ?? step.tool_id,
            problems: problems.get(step.id) ?? [],
            run: runs.get(step.id),
          },
        };
      });
    });
  }, [draft, tools, problems, runs, selected, positions]);

  const edges = useMemo<Edge[]>(() => {
    const ids = new Set(draft.map((step) => step.id));
    return draft.flatMap((step) =>
      step.depends_on
        .filter((dependency) => ids.has(dependency))
        .map((dependency) => ({
          id: `${dependency}->${step.id}`,
          source: dependency,
          target: step.id,
          label: step.condition === null ? undefined : `only when ${preview(step.condition, 40)}`,
          ariaLabel: `${dependency} to ${step.id}`,
          markerEnd: { type: MarkerType.ArrowClosed },
          style: { strokeWidth: 2 },
          interactionWidth: 24,
        })),
    );
  }, [draft]);

  function onNodesChange(changes: NodeChange<StepFlowNode>[]) {
    setNodes((current) => applyNodeChanges(changes, current));
    const moved = changes.filter((item) => item.type === 'position' && item.position);
    if (moved.length)
      setPositions((current) => {
        const next = new Map(current);
        for (const item of moved) if (item.type === 'position' && item.position) next.set(item.id, item.position);
        return next;
      });
    for (const item of changes) {
      if (item.type === 'select' && item.selected) onSelect(item.id);
      if (item.type === 'select' && !item.selected && item.id === selected) onSelect(null);
    }
  }
  /** Steps and connections deleted with the keyboard: one change, undone at once. */
  function onDelete({ nodes: gone, edges: cut }: { nodes: StepFlowNode[]; edges: Edge[] }) {
    change((current) =>
      gone.reduce(
        (next, node) => removeStep(next, node.id),
        cut.reduce((next, edge) => disconnect(next, edge.source, edge.target), current),
      ),
    );
  }

  function add(tool: ToolInfo, position: XYPosition, after?: string) {
    const step: DraftStep = newStep(draft, tool, tool.name, defaultInput(tool), after);
    setPositions((current) => new Map(current).set(step.id, position));
    change((current) => addStep(current, step));
    onSelect(step.id);
  }
  function onDrop(event: DragEvent) {
    const key = event.dataTransfer.getData(toolDragType);
    const tool = tools.get(key);
    if (!tool || !flow.current) return;
    event.preventDefault();
    add(tool, flow.current.screenToFlowPosition({ x: event.clientX - 100, y: event.clientY - 24 }));
  }
  function addAfterSelected(tool: ToolInfo) {
    const anchor = nodes.find((node) => node.id === selected);
    const position = anchor
      ? { x: anchor.position.x + columnWidth, y: anchor.position.y }
      : { x: 0, y: draft.length * rowHeight };
    add(tool, position, anchor?.id);
  }

  const selectedStep = draft.find((step) => step.id === selected);
  return (
    <Box style={{ display: 'flex', gap: 'var(--mantine-spacing-sm)', alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <Paper withBorder p="xs" radius="md" w={210} style={{ flex: '0 0 210px' }}>
        <ToolPalette tools={tools} selectedName={selectedStep?.name ?? null} onAdd={addAfterSelected} />
      </Paper>
      <Box
        h={540}
        role="application"
        aria-label="Canvas of the steps"
        aria-roledescription="workflow canvas"
        data-testid="workflow-canvas"
        onDragOver={(event) => {
          if (event.dataTransfer.types.includes(toolDragType)) {
            event.preventDefault();
            event.dataTransfer.dropEffect = 'copy';
          }
        }}
        onDrop={onDrop}
        style={{
          flex: '1 1 360px',
          minWidth: 0,
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-md)',
          overflow: 'hidden',
          position: 'relative',
          '--xy-background-color': 'var(--mantine-color-body)',
          '--xy-edge-label-background-color': 'var(--mantine-color-body)',
          '--xy-edge-label-color': 'var(--mantine-color-text)',
        }}
      >
        <ReactFlow<StepFlowNode>
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          colorMode={scheme}
          onInit={(instance) => {
            flow.current = instance;
          }}
          onNodesChange={onNodesChange}
          onDelete={onDelete}
          onConnect={(connection: Connection) =>
            change((current) => connect(current, connection.source, connection.target))
          }
          onEdgeClick={(_event, edge) => onEdge({ source: edge.source, target: edge.target })}
          onPaneClick={() => onSelect(null)}
          deleteKeyCode={['Delete', 'Backspace']}
          fitView={fitAtStart}
          fitViewOptions={{ padding: 0.25, maxZoom: 1 }}
          minZoom={0.2}
          maxZoom={1.5}
        >
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
        {draft.length === 0 && (
          <Text
            fz="sm"
            c="dimmed"
            style={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', pointerEvents: 'none' }}
          >
            Drag a tool here to add the first step.
          </Text>
        )}
      </Box>
      {panel && (
        <Paper withBorder p="sm" radius="md" style={{ flex: '0 1 320px', minWidth: 260 }}>
          {panel}
        </Paper>
      )}
    </Box>
  );
}
