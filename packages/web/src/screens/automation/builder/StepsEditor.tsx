import { useEffect, useMemo, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Skeleton,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconArrowForwardUp, IconFlask, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { messageOf } from '../../../lib/api.ts';
import { countOf, humanise } from '../../../lib/format.ts';
import { executionStatusColors, type WorkflowDetail } from '../automation-data.ts';
import { StepModal } from '../StepModal.tsx';
import type { ToolCatalog } from '../tool-catalog.ts';
import { ConnectionModal } from './ConnectionModal.tsx';
import { draftProblems, referencesFor } from './draft-problems.ts';
import { saveDraft } from './save-draft.ts';
import { draftChanged } from './save-plan.ts';
import { StepPanel } from './StepPanel.tsx';
import { StepTable } from './StepTable.tsx';
import { TestRunModal } from './TestRunModal.tsx';
import { useTestRun } from './test-run.ts';
import { toolKey, useToolInfo } from './tool-info.ts';
import { useDraftHistory } from './use-draft-history.ts';
import { WorkflowCanvas } from './WorkflowCanvas.tsx';
import { disconnect, draftOf, removeStep, updateStep, type DraftStep } from './workflow-draft.ts';

type View = 'canvas' | 'table';

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The steps of a workflow, edited as a draft on a canvas or in a table (the same draft), with undo and
 * redo, checks shown on the steps, a test run whose outputs appear on them, and one save for it all.
 */
export function StepsEditor({
  workflow,
  catalog,
  onSaved,
}: {
  workflow: WorkflowDetail;
  catalog: ToolCatalog | undefined;
  onSaved: () => Promise<unknown>;
}) {
  const saved = useMemo(() => draftOf(workflow.steps), [workflow.steps]);
  const history = useDraftHistory(saved, (draft) => draftChanged(saved, draft));
  const { draft, change, undo, redo } = history;
  const dirty = draftChanged(saved, draft);
  const tools = useToolInfo(catalog, workflow.id);
  const problems = useMemo(
    () => draftProblems(draft, tools, workflow.input_schema),
    [draft, tools, workflow.input_schema],
  );
  const blocking = [...problems.values()].flat().filter((problem) => problem.blocking).length;
  const phone = useMediaQuery('(max-width: 48em)');
  const [chosenView, setView] = useLocalStorage<View | undefined>({ key: 'rhizome.workflow-steps-view' });
  const locked = workflow.is_system;
  const view: View = locked ? 'table' : (chosenView ?? (phone ? 'table' : 'canvas'));
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<DraftStep | 'new' | null>(null);
  const [connection, setConnection] = useState<{ source: string; target: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const [saving, setSaving] = useState(false);
  const testRun = useTestRun(workflow.id);

  useEffect(() => {
    if (locked) return;
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || typing(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) undo();
      else if ((key === 'z' && event.shiftKey) || key === 'y') redo();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [locked, undo, redo]);

  async function save(): Promise<boolean> {
    if (blocking) {
      notifications.show({
        color: 'red',
        message: `Fix ${countOf(blocking, 'problem')} first: they are shown on the steps.`,
      });
      return false;
    }
    setSaving(true);
    try {
      await saveDraft(workflow.id, saved, draft);
      await onSaved();
      notifications.show({ color: 'teal', message: `The steps of “${workflow.name}” are saved.` });
      return true;
    } catch (error) {
      await onSaved();
      notifications.show({
        color: 'red',
        title: 'The steps were not all saved',
        message: messageOf(error),
        autoClose: false,
      });
      return false;
    } finally {
      setSaving(false);
    }
  }
  async function testRunWith(inputs: Record<string, unknown>) {
    if (dirty && !(await save())) throw new Error('The changes could not be saved, so the test did not start.');
    await testRun.start(inputs);
  }

  const references = (id: string) => referencesFor(draft, id, tools, workflow.input_schema);
  const selectedStep = view === 'canvas' ? draft.find((step) => step.id === selected) : undefined;
  const byId = (id: string | undefined) => draft.find((step) => step.id === id);
  const execution = testRun.execution;

  return (
    <Card withBorder radius="md">
      <Group justify="space-between" mb="sm" align="flex-start">
        <div>
          <Title order={2} fz="lg">
            Steps
          </Title>
          <Text fz="sm" c="dimmed">
            A step starts when the steps it runs after have finished; steps with nothing in between run side by side.
          </Text>
        </div>
        {!locked && (
          <SegmentedControl
            aria-label="Show the steps as"
            size="xs"
            value={view}
            onChange={(value) => setView(value as View)}
            data={[
              { label: 'Canvas', value: 'canvas' },
              { label: 'Table', value: 'table' },
            ]}
          />
        )}
      </Group>
      {!locked && (
        <Group gap="xs" mb="sm" justify="space-between">
          <Group gap={4}>
            <Tooltip label="Undo (Ctrl+Z)">
              <ActionIcon variant="default" size="lg" aria-label="Undo" disabled={!history.canUndo} onClick={undo}>
                <IconArrowBackUp size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Redo (Ctrl+Shift+Z)">
              <ActionIcon variant="default" size="lg" aria-label="Redo" disabled={!history.canRedo} onClick={redo}>
                <IconArrowForwardUp size={18} />
              </ActionIcon>
            </Tooltip>
            {view === 'table' && (
              <Button
                variant="light"
                leftSection={<IconPlus size={16} />}
                onClick={() => setEditing('new')}
                disabled={!tools}
              >
                Add a step
              </Button>
            )}
            <Text fz="sm" c={blocking ? 'red' : 'dimmed'} ml="xs" aria-live="polite">
              {blocking ? `${countOf(blocking, 'problem')} to fix` : dirty ? 'Unsaved changes' : 'Saved'}
            </Text>
          </Group>
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconFlask size={16} />}
              disabled={!workflow.is_active || draft.length === 0 || blocking > 0}
              title={workflow.is_active ? undefined : 'The workflow is switched off'}
              onClick={() => setTesting(true)}
            >
              Test run…
            </Button>
            <Button variant="default" disabled={!dirty} onClick={() => change(() => saved)}>
              Discard changes
            </Button>
            <Button disabled={!dirty} loading={saving} onClick={() => void save()}>
              Save changes
            </Button>
          </Group>
        </Group>
      )}
      {execution && (
        <Group gap="xs" mb="sm" data-testid="test-run-status">
          <Text fz="sm">Test run:</Text>
          <Badge variant="light" color={executionStatusColors[execution.status] ?? 'gray'}>
            {humanise(execution.status)}
          </Badge>
          {execution.error && (
            <Text fz="sm" c="red">
              {execution.error}
            </Text>
          )}
          <Anchor component={Link} to={`/automation/executions/${execution.id}`} fz="sm">
            Open the run
          </Anchor>
          <Anchor component="button" type="button" fz="sm" onClick={testRun.clear}>
            Hide the outputs
          </Anchor>
        </Group>
      )}
      {!tools && <Skeleton h={320} radius="md" />}
      {tools && view === 'canvas' && (
        <WorkflowCanvas
          draft={draft}
          tools={tools}
          problems={problems}
          runs={testRun.steps}
          selected={selected}
          onSelect={setSelected}
          change={change}
          onEdge={setConnection}
          panel={
            selectedStep && (
              <StepPanel
                key={selectedStep.id}
                step={selectedStep}
                draft={draft}
                tool={tools.get(toolKey(selectedStep.tool_type, selectedStep.tool_id))}
                references={references(selectedStep.id)}
                problems={problems.get(selectedStep.id) ?? []}
                run={testRun.steps.get(selectedStep.id)}
                revision={history.revision}
                onChange={(changes, kind) => change((current) => updateStep(current, selectedStep.id, changes), kind)}
                onEditAll={() => setEditing(selectedStep)}
                onDelete={() => {
                  setSelected(null);
                  change((current) => removeStep(current, selectedStep.id));
                }}
              />
            )
          }
        />
      )}
      {tools && view === 'table' && (
        <StepTable
          draft={draft}
          tools={tools}
          problems={problems}
          label={`The steps of ${workflow.name} and the order they run in`}
          locked={locked}
          onEdit={setEditing}
          onRemove={(step) => change((current) => removeStep(current, step.id))}
        />
      )}
      {tools && (
        <StepModal
          draft={draft}
          step={editing === 'new' ? null : editing}
          opened={editing !== null}
          tools={tools}
          inputSchema={workflow.input_schema}
          onClose={() => setEditing(null)}
          onDone={(next) => {
            setEditing(null);
            change(() => next);
          }}
        />
      )}
      <ConnectionModal
        source={byId(connection?.source)}
        target={byId(connection?.target)}
        references={connection ? references(connection.target) : []}
        onClose={() => setConnection(null)}
        onCondition={(condition) => {
          if (connection) change((current) => updateStep(current, connection.target, { condition }));
          setConnection(null);
        }}
        onDisconnect={() => {
          if (connection) change((current) => disconnect(current, connection.source, connection.target));
          setConnection(null);
        }}
      />
      <TestRunModal
        opened={testing}
        inputSchema={workflow.input_schema}
        unsaved={dirty}
        onRun={testRunWith}
        onClose={() => setTesting(false)}
      />
    </Card>
  );
}
