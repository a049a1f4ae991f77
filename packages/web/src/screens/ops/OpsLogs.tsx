import { useEffect, useRef, useState } from 'react';
import { Badge, Card, Group, NumberInput, ScrollArea, Select, Switch, Table, Text, Title } from '@mantine/core';
import { opsEndpoints } from '@rhizome/contracts/api/ops';
import { api } from '../../lib/api.ts';
import { useLoad } from '../../lib/use-load.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

const services = [
  { value: 'all', label: 'All services' },
  { value: 'cortex', label: 'API server (cortex)' },
  { value: 'neuron', label: 'Worker (neuron)' },
  { value: 'auth-verify', label: 'Sign-in check (auth-verify)' },
  { value: 'nginx', label: 'Proxy (nginx)' },
  { value: 'valkey', label: 'Queue store (valkey)' },
];
const followMs = 2_000;

/** Recent log lines per service (or all interleaved), optionally followed as they are written; the process status beside. */
export function OpsLogs() {
  const [service, setService] = useState('all');
  const [lines, setLines] = useState<number>(200);
  const [follow, setFollow] = useState(false);
  const viewport = useRef<HTMLDivElement>(null);
  const logs = useLoad(
    () =>
      service === 'all'
        ? api.call(opsEndpoints.logs, { query: { lines } })
        : api.call(opsEndpoints.serviceLogs, { params: { service_name: service }, query: { lines } }),
    [service, lines],
  );
  const status = useLoad(() => api.call(opsEndpoints.logsStatus), []);

  useEffect(() => {
    if (!follow) return;
    const timer = setInterval(() => void logs.reload(), followMs);
    return () => clearInterval(timer);
  }, [follow, logs.reload]);
  useEffect(() => {
    // The newest lines are at the bottom: keep them in view.
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [logs.data]);

  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md">
        Logs
      </Title>
      <Text fz="sm" c="dimmed" mb="sm">
        The newest lines last. The level is under System.
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
        <pre
          data-testid="log-lines"
          style={{
            margin: 0,
            padding: 12,
            fontSize: 12,
            lineHeight: 1.5,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          {logs.data ? (logs.data.lines.length ? logs.data.lines.join('\n') : 'No lines yet.') : 'Loading…'}
        </pre>
      </ScrollArea>
      {logs.data && (
        <Text fz="xs" c="dimmed" mt={4} aria-live="polite">
          {logs.data.total_lines.toLocaleString()} lines{follow ? ' · following' : ''}
        </Text>
      )}
      {status.data?.available && (
        <Table.ScrollContainer minWidth={480} mt="md">
          <Table fz="sm" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Process</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>PID</Table.Th>
                <Table.Th>Up for</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {status.data.services.map((process) => (
                <Table.Tr key={process.name}>
                  <Table.Td>{process.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" size="sm" color={process.state === 'RUNNING' ? 'teal' : 'red'}>
                      {process.state}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{process.pid ?? '—'}</Table.Td>
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
