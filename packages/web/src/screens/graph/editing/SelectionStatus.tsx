import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { countOf } from '../../../lib/format.ts';
import type { KnowledgeGraph } from '../../../lib/graph-model.ts';
import type { useGraphWalk } from '../use-graph-walk.ts';
import type { CanvasEditor } from './use-canvas-editor.ts';

/**
 * What the canvas is doing now, in words: the highlight and the hidden entities (each with its way back),
 * a link waiting for its target, and the selection read out to a screen reader as it changes.
 */
export function SelectionStatus({
  graph,
  walk,
  editor,
  typeName,
}: {
  graph: KnowledgeGraph | undefined;
  walk: ReturnType<typeof useGraphWalk>;
  editor: CanvasEditor;
  typeName: (templateId: string) => string;
}) {
  const selected = walk.selected && graph?.hasNode(walk.selected) ? walk.selected : null;
  const linking = editor.linking && graph?.hasNode(editor.linking) ? editor.linking : null;
  const enterDoes =
    linking && linking !== selected
      ? `Enter links ${graph!.getNodeAttribute(linking, 'label')} to it.`
      : 'Enter opens its menu.';
  const announcement = selected
    ? `Selected ${graph!.getNodeAttribute(selected, 'label')}, ${typeName(graph!.getNodeAttribute(selected, 'templateId'))}, ${countOf(graph!.degree(selected), 'connection')}. ${enterDoes}`
    : '';
  return (
    <>
      <Text className="visually-hidden" aria-live="polite" data-testid="selection-announcement">
        {announcement}
      </Text>
      {linking && (
        <Group gap="xs" role="status">
          <Text fz="sm">
            Linking from <b>{graph!.getNodeAttribute(linking, 'label')}</b>: click the target, or select it with the
            arrow keys and press Enter.
          </Text>
          <Button
            size="compact-sm"
            variant="default"
            onClick={() => {
              editor.cancelLinking();
              editor.setDialog({ kind: 'link', request: { from: linking, to: null } });
            }}
          >
            Pick it by name
          </Button>
          <Button size="compact-sm" variant="subtle" onClick={editor.cancelLinking}>
            Cancel
          </Button>
        </Group>
      )}
      {(walk.highlight.size > 0 || walk.hiddenNodes.size > 0) && (
        <Group gap="xs">
          {walk.highlight.size > 0 && (
            <>
              <Badge variant="light" tt="none">
                {countOf(walk.highlight.size, 'highlighted entity', 'highlighted entities')}
              </Badge>
              <Anchor component="button" type="button" fz="sm" onClick={walk.clearHighlight}>
                Clear the highlight
              </Anchor>
            </>
          )}
          {walk.hiddenNodes.size > 0 && (
            <>
              <Badge variant="light" color="gray" tt="none">
                {countOf(walk.hiddenNodes.size, 'hidden entity', 'hidden entities')}
              </Badge>
              <Anchor component="button" type="button" fz="sm" onClick={walk.showHidden}>
                Show them again
              </Anchor>
            </>
          )}
        </Group>
      )}
    </>
  );
}
