import { useEffect, useMemo, useRef } from 'react';
import { Box, useComputedColorScheme } from '@mantine/core';
import {
  Background,
  Controls,
  MarkerType,
  Position,
  ReactFlow,
  type Edge,
  type Node,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { humanise } from '../lib/format.ts';

export interface DagStep {
  id: string;
  name: string;
  /** What the step runs, by the name a person knows it by. */
  tool: string;
  depends_on: string[];
  /** A run's outcome (executions); colours the step. */
  status?: string;
}

const columnWidth = 230;
const fitOptions = { padding: 0.2, maxZoom: 1.2 };
const rowHeight = 84;
const statusColors: Record<string, string> = {
  completed: 'var(--mantine-color-teal-filled)',
  failed: 'var(--mantine-color-red-filled)',
  running: 'var(--mantine-color-blue-filled)',
  skipped: 'var(--mantine-color-gray-5)',
  cancelled: 'var(--mantine-color-orange-filled)',
};

/** Each step's column: one after the deepest step it depends on (unknown or cyclic dependencies count as none). */
export function stepColumns(steps: Pick<DagStep, 'id' | 'depends_on'>[]): Map<string, number> {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const columns = new Map<string, number>();
  const visiting = new Set<string>();
  const columnOf = (id: string): number => {
    const known = columns.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    const step = byId.get(id);
    const column = step
      ? Math.max(-1, ...step.depends_on.filter((dependency) => byId.has(dependency)).map(columnOf)) + 1
      : 0;
    visiting.delete(id);
    columns.set(id, column);
    return column;
  };
  for (const step of steps) columnOf(step.id);
  return columns;
}

/** The steps as a left-to-right graph: an arrow from each step to the steps that wait for it. */
export function DagView({ steps, label, height = 280 }: { steps: DagStep[]; label: string; height?: number }) {
  const scheme = useComputedColorScheme('light');
  const box = useRef<HTMLDivElement>(null);
  const flow = useRef<ReactFlowInstance | null>(null);
  // The graph is fitted again whenever its box changes size (a rotated phone, a resized window).
  useEffect(() => {
    if (!box.current) return;
    const observer = new ResizeObserver(() => void flow.current?.fitView(fitOptions));
    observer.observe(box.current);
    return () => observer.disconnect();
  }, []);
  const { nodes, edges } = useMemo(() => {
    const columns = stepColumns(steps);
    const names = new Map(steps.map((step) => [step.id, step.name]));
    const rows = new Map<number, number>();
    const nodes: Node[] = steps.map((step) => {
      const column = columns.get(step.id) ?? 0;
      const row = rows.get(column) ?? 0;
      rows.set(column, row + 1);
      const border = step.status
        ? (statusColors[step.status] ?? 'var(--mantine-color-default-border)')
        : 'var(--mantine-primary-color-filled)';
      return {
        id: step.id,
        position: { x: column * columnWidth, y: row * rowHeight },
        data: {
          label: (
            <div>
              <strong>{step.name}</strong>
              <div style={{ fontSize: 11, opacity: 0.8 }}>
                {step.tool}
                {step.status ? ` · ${humanise(step.status)}` : ''}
              </div>
            </div>
          ),
        },
        sourcePosition: Position.Right,
        targetPosition: Position.Left,
        draggable: false,
        connectable: false,
        ariaLabel: `Step ${step.name}${step.depends_on.length ? `, after ${step.depends_on.map((id) => names.get(id) ?? id).join(', ')}` : ''}${step.status ? `, ${humanise(step.status)}` : ''}`,
        style: {
          borderColor: border,
          borderWidth: 2,
          width: 190,
          background: 'var(--mantine-color-body)',
          color: 'var(--mantine-color-text)',
        },
      };
    });
    const known = new Set(steps.map((step) => step.id));
    const edges: Edge[] = steps.flatMap((step) =>
      step.depends_on
        .filter((dependency) => known.has(dependency))
        .map((dependency) => ({
          id: `${dependency}->${step.id}`,
          source: dependency,
          target: step.id,
          markerEnd: { type: MarkerType.ArrowClosed, color: 'var(--mantine-color-dimmed)' },
          focusable: false,
          style: { stroke: 'var(--mantine-color-dimmed)', strokeWidth: 1.5 },
        })),
    );
    return { nodes, edges };
  }, [steps]);

  return (
    <Box
      ref={box}
      h={height}
      role="figure"
      aria-label={label}
      data-testid="dag-view"
      style={{
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
        overflow: 'hidden',
        '--xy-background-color': 'var(--mantine-color-body)',
      }}
    >
      <ReactFlow
        nodes={nodes}
        edges={edges}
        colorMode={scheme}
        fitView
        fitViewOptions={fitOptions}
        onInit={(instance) => {
          flow.current = instance;
        }}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        minZoom={0.2}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </Box>
  );
}
