import { Modal } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { nodeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { announceGraphChanged } from '../../lib/graph-changes.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { EntityForm } from './EntityForm.tsx';

/** Creates an entity by hand: its type, name and the type's properties; then opens its page. */
export function NewEntityModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useAction(nodeEndpoints.create);
  const navigate = useNavigate();
  return (
    <Modal opened={opened} onClose={onClose} title="New entity">
      {opened && (
        <EntityForm
          onSubmit={async ({ templateId, label, properties }) => {
            const node = await create.run({ body: { template_id: templateId, label, properties } });
            announceGraphChanged();
            navigate(`/entities/${encodeURIComponent(node.id)}`);
          }}
        />
      )}
    </Modal>
  );
}
