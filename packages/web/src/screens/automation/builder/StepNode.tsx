import { Badge, Group, Text } from '@mantine/core';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { humanise } from '../../../lib/format.ts';
import { executionStatusColors } from '../automation-data.ts';
import type { Problem } from './draft-problems.ts';
import type { TestRunStep } from './test-run.ts';
import type { DraftStep } from './workflow-draft.ts';

export type StepNodeData = {
  step: DraftStep;
  toolName: string;
  problems: Problem[];
  run: TestRunStep | undefined;
};
export type StepFlowNode = Node<StepNodeData, 'step'>;

/** A value in one short line: text as is, anything else as JSON, cut at `length`. */
export function preview(value: unknown, length = 90): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** A step on the canvas: its name and tool, what is wrong with it, and what it gave in the test run. */
export function StepNode({ data, selected }: NodeProps<StepFlowNode>) {
  const { step, toolName, problems, run } = data;
  const blocking = problems.some((problem) => problem.blocking);
  const border = blocking
    ? 'var(--mantine-color-red-filled)'
    : problems.length
      ? 'var(--mantine-color-yellow-filled)'
      : run
        ? `var(--mantine-color-${executionStatusColors[run.status] ?? 'gray'}-filled)`
        : 'var(--mantine-primary-color-filled)';
  return (
    <div
      data-step-node={step.id}
      style={{
        width: 200,
        padding: '6px 10px',
        borderRadius: 8,
        border: `2px solid ${border}`,
        outline: selected ? '2px solid var(--mantine-primary-color-light-color)' : undefined,
        outlineOffset: 2,
        background: 'var(--mantine-color-body)',
        color: 'var(--mantine-color-text)',
      }}
    >
      <Handle type="target" position={Position.Left} />
      <Text fz="sm" fw={700} truncate>
        {step.name}
      </Text>
      <Text fz="xs" c="dimmed" truncate>
        {toolName}
      </Text>
      {problems.map((problem) => (
        <Text key={problem.message} fz={11} mt={2} lh={1.3} c={problem.blocking ? 'red' : 'dimmed'} lineClamp={2}>
          {problem.message}
        </Text>
      ))}
      {run && (
        <div data-testid="step-test-output">
          <Group gap={4} mt={4} wrap="nowrap">
            <Badge size="xs" variant="light" color={executionStatusColors[run.status] ?? 'gray'}>
              {humanise(run.status)}
            </Badge>
          </Group>
          {(run.output !== null || run.error) && (
            <Text fz={11} ff="monospace" mt={2} style={{ overflowWrap: 'anywhere' }} lineClamp={3}>
              {run.error ?? preview(run.output)}
            </Text>
          )}
        </div>
      )}
      <Handle type="source" position={Position.Right} />
    </div>
  );
}
