import { useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { templateEndpoints, type TemplateResponse } from '@rhizome/contracts/api/templates';
import { RequestError } from '@rhizome/client';
import { api, messageOf } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { templateLabel } from '../../lib/graph-labels.ts';

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
  onDeleted: (id: string) => void;
}) {
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
      await api.call(templateEndpoints.remove, {
        params: { template_id: template.id },
        query: force ? { force: true } : {},
      });
      onDeleted(template.id);
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
    <Modal
      opened={template !== null}
      onClose={onClose}
      title={`Delete the template “${template ? templateLabel(template.name) : ''}”?`}
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
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          Keep
        </Button>
        {inUse ? (
          <Button color="red" loading={busy} onClick={() => void remove(true)}>
            Delete the template and {users}
          </Button>
        ) : (
          <Button color="red" loading={busy} onClick={() => void remove(false)}>
            Delete
          </Button>
        )}
      </Group>
    </Modal>
  );
}
