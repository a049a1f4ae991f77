import { useState } from 'react';
import { Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ConfirmDelete } from '../../../components/ConfirmDelete.tsx';
import { EntityPicker } from '../../../components/canvas/EntityPicker.tsx';
import { messageOf } from '../../../lib/api.ts';
import type { KnowledgeGraph } from '../../../lib/graph-model.ts';
import { useTemplatesOf } from '../../entities/use-templates-of.ts';
import { CanvasMenu } from './CanvasMenu.tsx';
import { CreateEntityModal } from './CreateEntityModal.tsx';
import { EdgeModal } from './EdgeModal.tsx';
import { LinkModal } from './LinkModal.tsx';
import { ShortcutsSheet } from './ShortcutsSheet.tsx';
import type { CanvasEdits } from './use-canvas-edits.ts';
import type { CanvasEditor } from './use-canvas-editor.ts';

/** How an edge reads: "Ada works at Acme". */
function edgeTitle(graph: KnowledgeGraph, id: string): string {
  if (!graph.hasEdge(id)) return '';
  const [source, target] = graph.extremities(id);
  return `${graph.getNodeAttribute(source, 'label')} ${graph.getEdgeAttribute(id, 'label')} ${graph.getNodeAttribute(target, 'label')}`;
}

/** The canvas's menu and every dialog it opens, over the loaded graph. */
export function CanvasDialogs({
  graph,
  editor,
  edits,
  onSelect,
}: {
  graph: KnowledgeGraph;
  editor: CanvasEditor;
  edits: CanvasEdits;
  /** Selects an entity, the camera flown to it unless `fly` is false (one already in view). */
  onSelect: (id: string | null, fly?: boolean) => void;
}) {
  const { dialog, closeDialog } = editor;
  // The types the create and link dialogs offer, read with the canvas: a dialog reading them only once open
  // would ignore an Enter pressed before they arrived (its submit button waits for a type).
  useTemplatesOf('node');
  useTemplatesOf('edge');
  const [deleting, setDeleting] = useState(false);
  const target = editor.menu?.target;
  const menuTitle =
    target?.kind === 'node' && graph.hasNode(target.id)
      ? graph.getNodeAttribute(target.id, 'label')
      : target?.kind === 'edge'
        ? edgeTitle(graph, target.id)
        : 'Canvas';
  const remove = (action: () => Promise<void>, done: string) => {
    setDeleting(true);
    void action()
      .then(() => {
        notifications.show({ color: 'teal', message: done });
        closeDialog();
      })
      .catch((error: unknown) =>
        notifications.show({ color: 'red', title: 'Could not delete', message: messageOf(error) }),
      )
      .finally(() => setDeleting(false));
  };
  const entityToDelete = dialog?.kind === 'delete-entity' && graph.hasNode(dialog.id) ? dialog.id : null;
  const edgeToDelete = dialog?.kind === 'delete-edge' && graph.hasEdge(dialog.id) ? dialog.id : null;

  return (
    <>
      <CanvasMenu request={editor.menu} title={menuTitle} commands={editor.commands} onClose={editor.closeMenu} />
      <CreateEntityModal
        opened={dialog?.kind === 'create'}
        onClose={closeDialog}
        onCreate={async (input) => {
          if (dialog?.kind !== 'create') return;
          const node = await edits.createEntity(input, dialog.point);
          // Made where the canvas was pointed at, so in view: a flight there would only hide the edges a moment.
          onSelect(node.id, false);
          notifications.show({ color: 'teal', message: `${node.label} created.` });
        }}
      />
      <LinkModal
        graph={graph}
        request={dialog?.kind === 'link' ? dialog.request : null}
        onClose={closeDialog}
        onLink={async (input) => {
          await edits.link(input);
          notifications.show({ color: 'teal', message: 'Linked.' });
        }}
      />
      <EdgeModal
        edgeId={dialog?.kind === 'edge' ? dialog.id : null}
        title={dialog?.kind === 'edge' ? edgeTitle(graph, dialog.id) : ''}
        onClose={closeDialog}
        edits={edits}
      />
      <ConfirmDelete
        opened={entityToDelete !== null}
        title={`Delete ${entityToDelete ? graph.getNodeAttribute(entityToDelete, 'label') : ''}?`}
        busy={deleting}
        onKeep={closeDialog}
        onDelete={() =>
          entityToDelete &&
          remove(async () => {
            await edits.deleteEntity(entityToDelete);
            onSelect(null);
          }, 'Entity deleted.')
        }
      >
        It goes with its relationships and citations. This cannot be undone.
      </ConfirmDelete>
      <ConfirmDelete
        opened={edgeToDelete !== null}
        title="Delete this relationship?"
        busy={deleting}
        onKeep={closeDialog}
        onDelete={() => edgeToDelete && remove(() => edits.deleteEdge(edgeToDelete), 'Relationship deleted.')}
      >
        {`${edgeToDelete ? edgeTitle(graph, edgeToDelete) : ''}. The entities at its two ends stay.`}
      </ConfirmDelete>
      <Modal opened={dialog?.kind === 'goto'} onClose={closeDialog} title="Go to an entity">
        <EntityPicker
          graph={graph}
          label="Entity"
          value={null}
          autoFocus
          onChange={(id) => {
            if (!id) return;
            closeDialog();
            onSelect(id);
          }}
        />
      </Modal>
      <ShortcutsSheet opened={dialog?.kind === 'shortcuts'} onClose={closeDialog} />
    </>
  );
}
