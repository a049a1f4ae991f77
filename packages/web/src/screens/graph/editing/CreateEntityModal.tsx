import { Modal } from '@mantine/core';
import { EntityForm, type EntityInput } from '../../entities/EntityForm.tsx';

/** A new entity where the canvas was clicked: its type, name and the type's properties. */
export function CreateEntityModal({
  opened,
  onClose,
  onCreate,
}: {
  opened: boolean;
  onClose: () => void;
  onCreate: (input: EntityInput) => Promise<unknown>;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="New entity here">
      {opened && (
        <EntityForm
          onSubmit={async (input) => {
            await onCreate(input);
            onClose();
          }}
        />
      )}
    </Modal>
  );
}
