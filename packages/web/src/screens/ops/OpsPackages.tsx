import { useState } from 'react';
import { Alert, Button, Card, Checkbox, FileInput, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconFileImport, IconPackageExport } from '@tabler/icons-react';
import { exportEndpoints, type ExportResult } from '@rhizome/contracts/api/exports';
import { api, messageOf } from '../../lib/api.ts';
import { countOf, formatBytes, humanise } from '../../lib/format.ts';
import { OpsImportReport, type ImportReport } from './OpsImportReport.tsx';
import { OpsTaskProgress } from './OpsTaskProgress.tsx';
import { useTask } from './use-task.ts';
import { useAction } from '../../lib/data/use-action.ts';

const parts = [
  ['include_templates', 'Templates'],
  ['include_knowledge', 'Nodes and edges'],
  ['include_workflows', 'Workflows'],
  ['include_sources', 'Sources with passages and citations'],
  ['include_embeddings', 'Vectors (larger file, no re-embedding on import)'],
] as const;
type Part = (typeof parts)[number][0];

/** "nodes" → "node", "entries" → "entry": the noun of a count of one. */
const singularOf = (plural: string) => plural.replace(/ies$/, 'y').replace(/s$/, '');

/** Export the active database as a .ccx package, and import one (merged or replacing), each with its progress. */
export function OpsPackages() {
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
      <ExportCard />
      <ImportCard />
    </SimpleGrid>
  );
}

function ExportCard() {
  const startExport = useAction(exportEndpoints.exportAll);
  const [include, setInclude] = useState<Record<Part, boolean>>({
    include_templates: true,
    include_knowledge: true,
    include_workflows: true,
    include_sources: true,
    include_embeddings: false,
  });
  const [taskId, setTaskId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const task = useTask(taskId);
  const result = task.result as ExportResult | undefined;

  async function start() {
    setFailure(null);
    setTaskId(null);
    try {
      setTaskId((await startExport.run({ query: include })).task_id);
    } catch (error) {
      setFailure(messageOf(error));
    }
  }

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md">
        Export
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        A .ccx package of the active database, to move it or share it.
      </Text>
      <Stack gap={6} mb="md">
        {parts.map(([key, label]) => (
          <Checkbox
            key={key}
            label={label}
            checked={include[key]}
            onChange={(event) => setInclude({ ...include, [key]: event.currentTarget.checked })}
          />
        ))}
      </Stack>
      <Button
        leftSection={<IconPackageExport size={16} />}
        onClick={() => void start()}
        loading={Boolean(taskId) && !task.done}
        disabled={!Object.values(include).some(Boolean)}
      >
        Export
      </Button>
      {failure && (
        <Alert color="red" mt="sm" role="alert">
          {failure}
        </Alert>
      )}
      {taskId && (
        <div style={{ marginTop: 16 }}>
          <OpsTaskProgress state={task} label="Export" />
        </div>
      )}
      {taskId && result && (
        <Alert color="teal" mt="sm" title="The package is ready" role="status">
          <Text fz="sm">
            {result.filename} · {formatBytes(result.size_bytes)} ·{' '}
            {Object.entries(result.counts)
              .filter(([, value]) => value > 0)
              .map(([key, value]) => countOf(value, singularOf(humanise(key)), humanise(key)))
              .join(', ') || 'empty'}
          </Text>
          <Button
            component="a"
            href={api.url(exportEndpoints.download, { params: { task_id: taskId } })}
            download={result.filename}
            mt="xs"
            size="xs"
            leftSection={<IconDownload size={14} />}
          >
            Download the package
          </Button>
        </Alert>
      )}
    </Card>
  );
}

function ImportCard() {
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<'merge' | 'replace'>('merge');
  const [uploading, setUploading] = useState(false);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const task = useTask(taskId);

  async function start() {
    if (!file) return;
    setFailure(null);
    setTaskId(null);
    setUploading(true);
    try {
      setTaskId((await api.upload(exportEndpoints.import, [file], { merge: mode === 'merge' })).task_id);
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setUploading(false);
    }
  }

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md">
        Import
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        A .ccx package from Rhizome or a compatible tool. It is checked completely before anything changes.
      </Text>
      <FileInput
        label="Package"
        placeholder="Choose a .ccx file"
        accept=".ccx,.zip,application/zip"
        value={file}
        onChange={(next) => {
          setFile(next);
          setFailure(null);
        }}
        clearable
        clearButtonProps={{ 'aria-label': 'Remove the file' }}
        styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
        leftSection={<IconFileImport size={16} />}
        mb="sm"
      />
      <Radio.Group label="How" value={mode} onChange={(value) => setMode(value as 'merge' | 'replace')} mb="sm">
        <Stack gap={6} mt={4}>
          <Radio value="merge" label="Add to what is here (things imported before are updated, not duplicated)" />
          <Radio value="replace" label="Replace the graph, sources and workflows of the active database" />
        </Stack>
      </Radio.Group>
      {mode === 'replace' && (
        <Alert color="yellow" mb="sm">
          Everything in the active database is cleared first. Take a backup under Backups if you may want it back.
        </Alert>
      )}
      <Button
        leftSection={<IconFileImport size={16} />}
        onClick={() => void start()}
        loading={uploading || (Boolean(taskId) && !task.done)}
        disabled={!file}
      >
        Import
      </Button>
      {failure && (
        <Alert color="red" mt="sm" role="alert" title="The package was not imported">
          {failure}
        </Alert>
      )}
      {taskId && (
        <div style={{ marginTop: 16 }}>
          <OpsTaskProgress state={task} label="Import" />
        </div>
      )}
      {taskId && task.done && task.result !== undefined && (
        <div style={{ marginTop: 16 }}>
          <OpsImportReport report={task.result as ImportReport} />
        </div>
      )}
    </Card>
  );
}
