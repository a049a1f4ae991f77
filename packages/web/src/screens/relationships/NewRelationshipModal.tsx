import { useState } from 'react';
import { Modal } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { edgeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { announceGraphChanged } from '../../lib/graph-changes.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { EntitySearchSelect, type EntityChoice } from './EntitySearchSelect.tsx';
import { RelationshipForm } from './RelationshipForm.tsx';
import { RelationshipTypeSelect, useRelationshipType } from './RelationshipTypeSelect.tsx';

/** The plain relationship type every database has: offered first. */
const empty = { label: '', properties: {} };

/** Links two entities picked by name with a relationship of a type, named, with the type's properties; then opens it. */
export function NewRelationshipModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="New relationship">
      {opened && <NewRelationshipForm />}
    </Modal>
  );
}

function NewRelationshipForm() {
  const type = useRelationshipType();
  const create = useAction(edgeEndpoints.create);
  const navigate = useNavigate();
  const [from, setFrom] = useState<EntityChoice | null>(null);
  const [to, setTo] = useState<EntityChoice | null>(null);
  const { templateId, definitions } = type;
  return (
    <RelationshipForm
      edge={empty}
      definitions={definitions}
      saveLabel="Create relationship"
      complete={from !== null && to !== null && templateId !== null}
      before={
        <>
          <EntitySearchSelect label="From entity" value={from} onChange={setFrom} exclude={to?.id} autoFocus />
          <EntitySearchSelect label="To entity" value={to} onChange={setTo} exclude={from?.id} />
          <RelationshipTypeSelect type={type} />
        </>
      }
      onSave={async ({ label, properties }) => {
        if (!from || !to || !templateId) return;
        const edge = await create.run({
          body: { template_id: templateId, source_node_id: from.id, target_node_id: to.id, label, properties },
        });
        announceGraphChanged();
        navigate(`/relationships/${encodeURIComponent(edge.id)}`);
      }}
    />
  );
}
