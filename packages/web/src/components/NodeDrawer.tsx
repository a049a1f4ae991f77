import { useState } from 'react';
import { Drawer } from '@mantine/core';
import { NodeDetails } from './NodeDetails.tsx';

/** An entity (graph node) in a side panel over the current screen: its page, with its actions. */
export function NodeDrawer({
  nodeId,
  onClose,
  onOpenNode,
  onOpenPassage,
}: {
  nodeId: string | null;
  onClose: () => void;
  onOpenNode: (id: string) => void;
  onOpenPassage: (sourceId: string, chunkId: string, sentence: string | null) => void;
}) {
  // The title follows renames: the page reports the name with each load of the entity.
  const [title, setTitle] = useState<{ nodeId: string; label: string } | null>(null);
  return (
    <Drawer
      opened={nodeId !== null}
      onClose={onClose}
      position="right"
      size="md"
      title={(title?.nodeId === nodeId && title.label) || 'Entity'}
    >
      {nodeId && (
        <div data-testid="node-drawer">
          <NodeDetails
            key={nodeId}
            nodeId={nodeId}
            onOpenNode={onOpenNode}
            onOpenPassage={onOpenPassage}
            onGone={onClose}
            onLabel={(label) => setTitle({ nodeId, label })}
          />
        </div>
      )}
    </Drawer>
  );
}
