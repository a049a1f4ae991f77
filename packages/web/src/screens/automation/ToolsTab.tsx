import { useState } from 'react';
import { Accordion, Badge, Button, Code, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { EditDeleteActions } from '../../components/EditDeleteActions.tsx';
import { toolEndpoints } from '@rhizome/contracts/api/tools';
import { runWithNotice } from '../../lib/notify-action.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { JsonBlock } from '../../components/JsonBlock.tsx';
import { type SystemTool, type UserTool } from './automation-data.ts';
import { ToolSchema } from './ToolSchema.tsx';
import { ToolStats } from './ToolStats.tsx';
import { UserToolModal } from './UserToolModal.tsx';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { useEndpoint, useEndpointPages } from '../../lib/data/use-endpoint.ts';
import { useAction } from '../../lib/data/use-action.ts';

/** The built-in tools with their input and output schemas, and your own configured tools; each with its call statistics. */
export function ToolsTab() {
  const systemTools = useEndpoint(toolEndpoints.systemList);
  const userTools = useEndpointPages(toolEndpoints.list);
  const deleteTool = useAction(toolEndpoints.remove);
  const [editing, setEditing] = useState<UserTool | 'new' | null>(null);
  const [deleting, setDeleting] = useState<UserTool | null>(null);
  const [openTools, setOpenTools] = useState<string[]>([]);

  async function remove() {
    if (!deleting) return;
    const { id, name } = deleting;
    setDeleting(null);
    await runWithNotice(
      async () => {
        await deleteTool.run({ params: { tool_id: id } });
      },
      { success: `The tool “${name}” is deleted.`, failure: `Could not delete “${name}”` },
    );
  }

  return (
    <Stack gap="lg">
      <section aria-labelledby="user-tools">
        <Group justify="space-between" mb="xs">
          <div>
            <Title order={2} fz="lg" id="user-tools">
              Your tools
            </Title>
            <Text fz="sm" c="dimmed">
              A built-in tool with part of its input filled in once, e.g. an HTTP request to one service.
            </Text>
          </div>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => setEditing('new')}
            disabled={!systemTools.data}
          >
            New tool
          </Button>
        </Group>
        {userTools.error && (
          <ErrorNotice
            title="Could not load your tools"
            message={userTools.error}
            onRetry={() => void userTools.reload()}
          />
        )}
        {!userTools.data && !userTools.error && <Skeleton h={80} radius="md" />}
        {userTools.data?.length === 0 && (
          <Paper withBorder p="md" radius="md">
            <Text fz="sm" c="dimmed">
              No tools of your own yet.
            </Text>
          </Paper>
        )}
        {userTools.data && userTools.data.length > 0 && (
          <Accordion variant="separated" multiple>
            {userTools.data.map((tool) => (
              <Accordion.Item key={tool.id} value={tool.id}>
                <Group wrap="nowrap" gap={0} pr="xs">
                  <Accordion.Control>
                    <Group gap="xs">
                      <Text fz="sm" fw={600}>
                        {tool.name}
                      </Text>
                      <Badge size="sm" variant="outline" color="gray" tt="none">
                        {tool.system_tool.name}
                      </Badge>
                      {!tool.is_active && (
                        <Badge size="sm" variant="light" color="gray">
                          Off
                        </Badge>
                      )}
                    </Group>
                  </Accordion.Control>
                  <EditDeleteActions
                    name={tool.name}
                    onEdit={() => setEditing(tool)}
                    onDelete={() => setDeleting(tool)}
                  />
                </Group>
                <Accordion.Panel>
                  <Stack gap="xs">
                    {tool.description && <Text fz="sm">{tool.description}</Text>}
                    <ToolStats type="user" id={tool.id} />
                    <Text fz="sm" fw={600}>
                      Configuration
                    </Text>
                    <JsonBlock value={tool.configuration} label={`Configuration of ${tool.name}`} />
                  </Stack>
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        )}
      </section>

      <section aria-labelledby="system-tools">
        <Title order={2} fz="lg" id="system-tools">
          Built-in tools
        </Title>
        <Text fz="sm" c="dimmed" mb="xs">
          What a step can run. Open one for the input it takes and the output it gives.
        </Text>
        {systemTools.error && (
          <ErrorNotice
            title="Could not load the built-in tools"
            message={systemTools.error}
            onRetry={() => void systemTools.reload()}
          />
        )}
        {!systemTools.data && !systemTools.error && <Skeleton h={200} radius="md" />}
        {systemTools.data && (
          <Accordion variant="separated" multiple value={openTools} onChange={setOpenTools}>
            {systemTools.data.map((tool) => (
              <Accordion.Item key={tool.id} value={tool.id}>
                <Accordion.Control>
                  <Group gap="xs" wrap="nowrap">
                    <Badge size="sm" variant="light" w={86}>
                      {tool.category}
                    </Badge>
                    <div style={{ minWidth: 0 }}>
                      <Text fz="sm" fw={600}>
                        {tool.name}
                      </Text>
                      <Text fz="xs" c="dimmed">
                        {tool.description}
                      </Text>
                    </div>
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>{openTools.includes(tool.id) && <SystemToolDetails tool={tool} />}</Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        )}
      </section>

      <UserToolModal
        opened={editing !== null}
        tool={editing === 'new' ? null : editing}
        systemTools={systemTools.data ?? []}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void userTools.reload();
        }}
      />
      <ConfirmDelete
        opened={deleting !== null}
        onKeep={() => setDeleting(null)}
        onDelete={() => void remove()}
        title={`Delete the tool “${deleting?.name ?? ''}”?`}
      >
        Steps that use it fail until they are given another tool.
      </ConfirmDelete>
    </Stack>
  );
}

/** Loaded when opened: the fields and the statistics of one built-in tool. */
function SystemToolDetails({ tool }: { tool: SystemTool }) {
  const { id } = tool;
  const detail = useEndpoint(toolEndpoints.systemGet, { params: { tool_id: id } });
  return (
    <Stack gap="xs">
      <ToolStats type="system" id={id} />
      <Text fz="xs" c="dimmed">
        Version {tool.version} · named <Code fz="xs">{id}</Code> in exported workflows
      </Text>
      {detail.error && (
        <Text fz="sm" c="red">
          {detail.error}
        </Text>
      )}
      {!detail.data && !detail.error && <Skeleton h={120} />}
      {detail.data && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          <div>
            <Text fz="sm" fw={600} mb={4}>
              What it takes
            </Text>
            <ToolSchema schema={detail.data.input_schema} label={`Input of ${tool.name}`} />
          </div>
          <div>
            <Text fz="sm" fw={600} mb={4}>
              What it gives
            </Text>
            <ToolSchema schema={detail.data.output_schema} label={`Output of ${tool.name}`} />
          </div>
        </SimpleGrid>
      )}
    </Stack>
  );
}
