import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { EditDeleteActions } from '../../../components/EditDeleteActions.tsx';
import { DagView } from '../../../components/DagView.tsx';
import { humanise } from '../../../lib/format.ts';
import { toolKindNames } from '../tool-catalog.ts';
import type { Problem } from './draft-problems.ts';
import { toolKey, type ToolInfo } from './tool-info.ts';
import type { Draft, DraftStep } from './workflow-draft.ts';

/** The steps as a list with a read-only diagram: the keyboard and phone way to edit the same draft. */
export function StepTable({
  draft,
  tools,
  problems,
  label,
  locked,
  onEdit,
  onRemove,
}: {
  draft: Draft;
  tools: Map<string, ToolInfo> | undefined;
  problems: Map<string, Problem[]>;
  label: string;
  locked: boolean;
  onEdit: (step: DraftStep) => void;
  onRemove: (step: DraftStep) => void;
}) {
  const toolName = (step: DraftStep) => tools?.get(toolKey(step.tool_type, step.tool_id))?.name ?? step.tool_id;
  const steps = draft.map((step) => ({ ...step, tool: toolName(step) }));
  const names = new Map(draft.map((step) => [step.id, step.name]));
  const after = (step: DraftStep) => step.depends_on.map((id) => names.get(id) ?? id);
  if (draft.length === 0)
    return (
      <Paper withBorder p="lg" radius="md" ta="center">
        <Text fz="sm" c="dimmed">
          No steps yet: add the first one.
        </Text>
      </Paper>
    );
  return (
    <Stack gap="sm">
      <DagView steps={steps} label={label} />
      <Table.ScrollContainer minWidth={300}>
        <Table verticalSpacing="xs" aria-label="Steps">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>#</Table.Th>
              <Table.Th>Step</Table.Th>
              <Table.Th visibleFrom="sm">Tool</Table.Th>
              <Table.Th visibleFrom="sm">Runs after</Table.Th>
              <Table.Th w={80}>
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {steps.map((step, index) => (
              <Table.Tr key={step.id} data-step-id={step.id}>
                <Table.Td>{index + 1}</Table.Td>
                <Table.Td>
                  <Text fz="sm" fw={600}>
                    {step.name}
                  </Text>
                  <Text fz="xs" c="dimmed" ff="monospace">
                    {step.id}
                  </Text>
                  <Text fz="xs" c="dimmed" hiddenFrom="sm">
                    {step.tool} · {step.depends_on.length ? `after ${after(step).join(', ')}` : 'runs first'}
                  </Text>
                  {(problems.get(step.id) ?? []).map((problem) => (
                    <Text key={problem.message} fz="xs" c={problem.blocking ? 'red' : 'dimmed'}>
                      {problem.message}
                    </Text>
                  ))}
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text fz="sm">{step.tool}</Text>
                  <Text fz="xs" c="dimmed">
                    {toolKindNames[step.tool_type] ?? humanise(step.tool_type)}
                  </Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  {step.depends_on.length ? (
                    <Group gap={4}>
                      {after(step).map((name) => (
                        <Badge key={name} size="sm" variant="light" tt="none">
                          {name}
                        </Badge>
                      ))}
                    </Group>
                  ) : (
                    <Text fz="sm" c="dimmed">
                      Runs first
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {!locked && (
                    <EditDeleteActions name={step.name} onEdit={() => onEdit(step)} onDelete={() => onRemove(step)} />
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
