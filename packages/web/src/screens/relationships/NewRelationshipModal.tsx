import { useState } from 'react';
import { Modal, Select } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { edgeEndpoints } from '@rhizome/contracts/api/graph-nodes';
import { announceGraphChanged } from '../../lib/graph-changes.ts';
import { useAction } from '../../lib/data/use-action.ts';
import { useTemplatesOf } from '../entities/use-templates-of.ts';
import { EntitySearchSelect, type EntityChoice } from './EntitySearchSelect.tsx';
import { RelationshipForm } from './RelationshipForm.tsx';

/** The plain relationship type every database has: offered first. */
const plainLink = 'system_template_link';
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
  const templates = useTemplatesOf('edge');
  const create = useAction(edgeEndpoints.create);
  const navigate = useNavigate();
  const [from, setFrom] = useState<EntityChoice | null>(null);
  const [to, setTo] = useState<EntityChoice | null>(null);
  const [chosenTemplate, setTemplateId] = useState<string | null>(null);
  const templateId =
    chosenTemplate ?? (templates.list.some((template) => template.id === plainLink) ? plainLink : null);
  const definitions = templates.list.find((template) => template.id === templateId)?.properties ?? [];
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
          <Select
            label="Relationship type"
            data={templates.options}
            value={templateId}
            onChange={setTemplateId}
            searchable
            required
            allowDeselect={false}
          />
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
