import { useState } from 'react';
import { ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ToolInfo } from './tool-info.ts';

/** The drag data type a palette item carries: the tool's key. */
export const toolDragType = 'application/x-rhizome-tool';

/**
 * Everything a step can run, grouped and searchable. Drag a tool onto the canvas to add a step there, or
 * press it (Enter) to add it after the selected step.
 */
export function ToolPalette({
  tools,
  selectedName,
  onAdd,
}: {
  tools: Map<string, ToolInfo>;
  selectedName: string | null;
  onAdd: (tool: ToolInfo) => void;
}) {
  const [search, setSearch] = useState('');
  const wanted = search.trim().toLowerCase();
  const groups = new Map<string, ToolInfo[]>();
  for (const tool of tools.values())
    if (!wanted || `${tool.name} ${tool.description} ${tool.group}`.toLowerCase().includes(wanted))
      groups.set(tool.group, [...(groups.get(tool.group) ?? []), tool]);
  return (
    <Stack gap="xs" role="region" aria-label="Tools" h="100%">
      <TextInput
        aria-label="Find a tool"
        placeholder="Find a tool"
        leftSection={<IconSearch size={14} />}
        size="xs"
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
      />
      <Text fz="xs" c="dimmed">
        Drag a tool onto the canvas, or press it to add it{' '}
        {selectedName ? `after “${selectedName}”` : 'as a first step'}.
      </Text>
      <ScrollArea.Autosize mah={420} type="auto" offsetScrollbars>
        <Stack gap="sm">
          {[...groups].map(([group, entries]) => (
            <div key={group}>
              <Text fz="xs" fw={700} tt="uppercase" c="dimmed" mb={2}>
                {group}
              </Text>
              <Stack gap={2}>
                {entries.map((tool) => (
                  <UnstyledButton
                    key={tool.key}
                    draggable
                    onDragStart={(event) => {
                      event.dataTransfer.setData(toolDragType, tool.key);
                      event.dataTransfer.effectAllowed = 'copy';
                    }}
                    onClick={() => onAdd(tool)}
                    title={tool.description}
                    px={8}
                    py={4}
                    fz="sm"
                    style={{
                      borderRadius: 'var(--mantine-radius-sm)',
                      border: '1px solid var(--mantine-color-default-border)',
                      cursor: 'grab',
                    }}
                  >
                    {tool.name}
                  </UnstyledButton>
                ))}
              </Stack>
            </div>
          ))}
          {groups.size === 0 && (
            <Text fz="sm" c="dimmed">
              No tool matches.
            </Text>
          )}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
