import { useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Box, Card, Group, NumberInput, ScrollArea, Select, Switch, Table, Text, Title } from '@mantine/core';
import { opsEndpoints } from '@rhizome/contracts/api/ops';
import { countOf, humanise } from '../../lib/format.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { JsonBlock } from '../../components/JsonBlock.tsx';
import { isAtLeast, logLevelColors, parseLogLine, type LogEntry, type LogLevel } from './log-entries.ts';
import { useEndpoint } from '../../lib/data/use-endpoint.ts';

const services = [
  { value: 'all', label: 'All services' },
  { value: 'cortex', label: 'API server (cortex)' },
  { value: 'neuron', label: 'Worker (neuron)' },
  { value: 'auth-verify', label: 'Sign-in check (auth-verify)' },
  { value: 'nginx', label: 'Proxy (nginx)' },
  { value: 'valkey', label: 'Queue store (valkey)' },
];
const followMs = 2_000;
const levelChoices = [
  { value: 'all', label: 'Every level' },
  { value: 'debug', label: 'Debug and above' },
  { value: 'info', label: 'Info and above' },
  { value: 'warning', label: 'Warnings and errors' },
  { value: 'error', label: 'Errors only' },
];

/** Recent log lines per service (or all interleaved), optionally followed as they are written; the process status beside. */
export function OpsLogs() {
  const [service, setService] = useState('all');
  const [lines, setLines] = useState<number>(200);
  const [follow, setFollow] = useState(false);
  const [level, setLevel] = useState<LogLevel | 'all'>('all');
  const viewport = useRef<HTMLDivElement>(null);
  const refreshMs = follow ? followMs : false;
  const allLogs = useEndpoint(opsEndpoints.logs, service === 'all' ? { query: { lines } } : null, { refreshMs });
  const serviceLogs = useEndpoint(
    opsEndpoints.serviceLogs,
    service === 'all' ? null : { params: { service_name: service }, query: { lines } },
    { refreshMs },
  );
  const logs = service === 'all' ? allLogs : serviceLogs;
  const status = useEndpoint(opsEndpoints.logsStatus);
  const entries = useMemo(() => (logs.data?.lines ?? []).map(parseLogLine), [logs.data]);
  const shown = entries.filter((entry) => isAtLeast(entry, level));

  useEffect(() => {
    // The newest lines are at the bottom: keep them in view.
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [logs.data, level]);

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md">
        Logs
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        The newest lines last. Which levels are written is set under System.
      </Text>
      <Group align="flex-end" gap="sm" mb="sm">
        <Select
          label="Service"
          data={services}
          value={service}
          onChange={(value) => value && setService(value)}
          allowDeselect={false}
          w={{ base: '100%', sm: 260 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Level"
          data={levelChoices}
          value={level}
          onChange={(value) => value && setLevel(value as LogLevel | 'all')}
          allowDeselect={false}
          w={{ base: '100%', sm: 200 }}
          comboboxProps={{ withinPortal: true }}
        />
        <NumberInput
          label="Lines"
          value={lines}
          onChange={(value) => typeof value === 'number' && value >= 1 && setLines(Math.min(10_000, Math.trunc(value)))}
          min={1}
          max={10_000}
          step={100}
          w={120}
        />
        <Switch
          label="Follow"
          description="Refresh every 2 s"
          checked={follow}
          onChange={(event) => setFollow(event.currentTarget.checked)}
        />
      </Group>
      {logs.error && <ErrorNotice message={logs.error} onRetry={() => void logs.reload()} />}
      <ScrollArea
        h={420}
        viewportRef={viewport}
        type="auto"
        style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)' }}
        viewportProps={{ tabIndex: 0, 'aria-label': 'Log lines' }}
      >
        <div data-testid="log-lines" role="log" style={{ padding: '6px 12px' }}>
          {!logs.data && (
            <Text fz="sm" c="dimmed">
              Loading…
            </Text>
          )}
          {logs.data && shown.length === 0 && (
            <Text fz="sm" c="dimmed">
              {entries.length ? 'No lines at this level.' : 'No lines yet.'}
            </Text>
          )}
          {shown.map((entry, index) => (
            <LogRow key={index} entry={entry} />
          ))}
        </div>
      </ScrollArea>
      {logs.data && (
        <Text fz="xs" c="dimmed" mt={4} aria-live="polite">
          {shown.length === entries.length
            ? countOf(entries.length, 'line')
            : `${shown.length.toLocaleString()} of ${countOf(entries.length, 'line')}`}
          {follow ? ' · following' : ''}
        </Text>
      )}
      {status.data?.available && (
        <Table.ScrollContainer minWidth={300} mt="md">
          <Table fz="sm" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Process</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th visibleFrom="sm">PID</Table.Th>
                <Table.Th>Up for</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {status.data.services.map((process) => (
                <Table.Tr key={process.name}>
                  <Table.Td>{process.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" size="sm" color={process.state === 'RUNNING' ? 'teal' : 'red'}>
                      {humanise(process.state)}
                    </Badge>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{process.pid ?? '—'}</Table.Td>
                  <Table.Td>{Math.round(process.uptime_seconds / 60).toLocaleString()} min</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {status.data && !status.data.available && (
        <Text fz="xs" c="dimmed" mt="xs">
          No process supervisor here (one process serves everything), so there is no per-process status.
        </Text>
      )}
    </Card>
  );
}

/** Today's lines by their time alone; older ones with their day. */
function logTime(time: Date): string {
  const today = time.toDateString() === new Date().toDateString();
  return time.toLocaleString(undefined, {
    ...(today ? {} : { month: 'short', day: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** One entry: time · level · service · message, its other fields folded beneath. */
function LogRow({ entry }: { entry: LogEntry }) {
  return (
    <Box
      py={4}
      data-level={entry.level ?? undefined}
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap={8} wrap="wrap" align="baseline">
        {entry.time && (
          <Text
            component="time"
            dateTime={entry.time.toISOString()}
            fz="xs"
            c="dimmed"
            ff="monospace"
            title={entry.time.toISOString()}
          >
            {logTime(entry.time)}
          </Text>
        )}
        {entry.level && (
          <Badge size="xs" variant="light" color={logLevelColors[entry.level]} w={80}>
            {entry.level}
          </Badge>
        )}
        {entry.service && (
          <Text fz="xs" c="dimmed">
            {entry.service}
          </Text>
        )}
        <Text fz="sm" style={{ flex: '1 1 16rem', minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {entry.message}
        </Text>
      </Group>
      {entry.extra && (
        <Box component="details" ml={{ base: 0, sm: 'xl' }}>
          <Text component="summary" fz="xs" c="dimmed" style={{ cursor: 'pointer' }}>
            {countOf(Object.keys(entry.extra).length, 'more field')}
          </Text>
          <JsonBlock value={entry.extra} label="More fields of this line" />
        </Box>
      )}
    </Box>
  );
}
