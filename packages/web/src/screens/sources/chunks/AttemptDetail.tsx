import { Accordion, Badge, Code, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { extractionEndpoints } from '@rhizome/contracts/api/extraction';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { useEndpoint } from '../../../lib/data/use-endpoint.ts';
import { choiceLabel } from '../../settings/settings-text.ts';
import { formatCount } from '../../../lib/format.ts';

const preStyle = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 320, overflow: 'auto' } as const;

/** One attempt in full: each call's prompts and raw answer, what was parsed, what was dropped and why. */
export function AttemptDetail({
  sourceId,
  chunkIndex,
  attemptId,
}: {
  sourceId: string;
  chunkIndex: number;
  attemptId: string;
}) {
  const attempt = useEndpoint(extractionEndpoints.attempt, {
    params: { source_id: sourceId, chunk_index: chunkIndex, attempt_id: attemptId },
  });
  if (attempt.error)
    return (
      <ErrorNotice title="Could not load the attempt" message={attempt.error} onRetry={() => void attempt.reload()} />
    );
  if (!attempt.data) return <Skeleton h={200} />;
  const data = attempt.data;
  return (
    <Stack gap="sm" aria-label={`Attempt ${data.attempt_number}`}>
      <Group gap="xs">
        <Badge variant="light" color={data.status === 'completed' ? 'green' : 'red'} tt="none">
          {data.status}
        </Badge>
        <Text fz="sm">
          {data.provider ? `${choiceLabel(data.provider)} · ` : ''}
          {data.model ?? 'model unknown'} · {formatCount(data.input_tokens)} tokens in,{' '}
          {formatCount(data.output_tokens)} out · {formatCount(data.llm_duration_ms)} ms
        </Text>
      </Group>
      {data.error_message && (
        <Text c="red" fz="sm">
          {data.error_message}
        </Text>
      )}
      {data.aborted_by_loop && <Text fz="sm">Cut short by a loop guard: {data.aborted_by_loop}</Text>}
      <Accordion variant="contained" multiple>
        {data.calls.map((call, index) => (
          <Accordion.Item key={index} value={`call-${index}`}>
            <Accordion.Control>
              {call.pass === 'entities' ? 'Entities pass' : 'Relationships pass'} · {formatCount(call.duration_ms)} ms
            </Accordion.Control>
            <Accordion.Panel>
              <Text fz="xs" fw={600}>
                Prompt
              </Text>
              <Code block style={preStyle} tabIndex={0} aria-label="Prompt">
                {`${call.system_prompt}\n\n${call.user_prompt}`}
              </Code>
              <Text fz="xs" fw={600} mt="xs">
                Answer ({call.finish_reason ?? 'no finish reason'})
              </Text>
              <Code block style={preStyle} tabIndex={0} aria-label="Answer">
                {call.raw_output || '(empty)'}
              </Code>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
      <ItemTable
        title={`Entities (${data.raw_entities.length})`}
        rows={data.raw_entities.map((entity) => [String(entity.name), String(entity.type), String(entity.confidence)])}
        head={['Name', 'Type', 'Confidence']}
      />
      <ItemTable
        title={`Relationships (${data.raw_relationships.length})`}
        rows={data.raw_relationships.map((item) => [String(item.source), String(item.type), String(item.target)])}
        head={['From', 'Type', 'To']}
      />
      <ItemTable
        title={`Dropped (${data.dropped_count})`}
        rows={data.dropped.map((item) => [item.item, item.stage.replace('_', ' '), item.reason])}
        head={['Item', 'Where', 'Why']}
      />
    </Stack>
  );
}

function ItemTable({ title, head, rows }: { title: string; head: string[]; rows: string[][] }) {
  return (
    <div>
      <Text fz="sm" fw={600} mb={4}>
        {title}
      </Text>
      {rows.length === 0 ? (
        <Text fz="sm" c="dimmed">
          None
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table fz="sm" verticalSpacing={2}>
            <Table.Thead>
              <Table.Tr>
                {head.map((name) => (
                  <Table.Th key={name}>{name}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, index) => (
                <Table.Tr key={index}>
                  {row.map((cell, column) => (
                    <Table.Td key={column} style={{ overflowWrap: 'anywhere' }}>
                      {cell}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </div>
  );
}
