import { useEffect, useState } from 'react';
import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { templateEndpoints, type TemplateResponse } from '@rhizome/contracts/api/templates';
import { RequestError } from '@rhizome/client';
import { messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { templateLabel } from '../../lib/graph-labels.ts';
import { ConfirmDelete } from '../../components/ConfirmDelete.tsx';
import { useAction } from '../../lib/data/use-action.ts';

interface InUse {
  node_count: number;
  edge_count: number;
  message: string;
}

/**
 * Deletes a template. The API refuses (409) while nodes or edges use it; the modal then says how many and
 * offers to delete them along with the template (force).
 */
export function DeleteTemplateModal({
  template,
  onClose,
  onDeleted,
}: {
  template: TemplateResponse | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const removeTemplate = useAction(templateEndpoints.remove);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [inUse, setInUse] = useState<InUse | null>(null);
  useEffect(() => {
    setError(null);
    setInUse(null);
  }, [template]);

  async function remove(force: boolean) {
    if (!template) return;
    setBusy(true);
    setError(null);
    try {
      await removeTemplate.run({
        params: { template_id: template.id },
        query: force ? { force: true } : {},
      });
      onDeleted();
    } catch (failure) {
      if (failure instanceof RequestError && failure.status === 409) {
        const details = failure.details ?? {};
        setInUse({
          node_count: Number(details.node_count ?? 0),
          edge_count: Number(details.edge_count ?? 0),
          message: failure.message,
        });
      } else setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  const users = inUse
    ? [
        inUse.node_count ? countOf(inUse.node_count, 'node') : '',
        inUse.edge_count ? countOf(inUse.edge_count, 'edge') : '',
      ]
        .filter(Boolean)
        .join(' and ')
    : '';
  return (
    <ConfirmDelete
      opened={template !== null}
      onKeep={onClose}
      onDelete={() => void remove(Boolean(inUse))}
      title={`Delete the template “${template ? templateLabel(template.name) : ''}”?`}
      deleteLabel={inUse ? `Delete the template and ${users}` : 'Delete'}
      busy={busy}
    >
      {!inUse && <Text fz="sm">Nodes and edges can no longer be given this type. This cannot be undone.</Text>}
      {inUse && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title={`In use by ${users}`} role="alert">
          <Text fz="sm">
            Deleting the template also deletes the {users} typed by it, with the edges of those nodes. This cannot be
            undone.
          </Text>
        </Alert>
      )}
      {error && (
        <Text c="red" fz="sm" mt="sm" role="alert">
          {error}
        </Text>
      )}
    </ConfirmDelete>
  );
}
