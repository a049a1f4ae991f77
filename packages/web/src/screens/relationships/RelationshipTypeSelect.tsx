import { useState } from 'react';
import { Select } from '@mantine/core';
import { useTemplatesOf } from '../entities/use-templates-of.ts';

const plainLink = 'system_template_link';

export type RelationshipType = ReturnType<typeof useRelationshipType>;

/** The type a new relationship is made with: the plain link until another is chosen, and its properties. */
export function useRelationshipType() {
  const templates = useTemplatesOf('edge');
  const [chosen, choose] = useState<string | null>(null);
  const templateId = chosen ?? (templates.list.some((template) => template.id === plainLink) ? plainLink : null);
  const definitions = templates.list.find((template) => template.id === templateId)?.properties ?? [];
  return { templateId, choose, definitions, options: templates.options };
}

/** Chooses the type of a new relationship among the relationship templates. */
export function RelationshipTypeSelect({ type, error }: { type: RelationshipType; error?: string }) {
  return (
    <Select
      label="Relationship type"
      data={type.options}
      value={type.templateId}
      onChange={type.choose}
      searchable
      required
      allowDeselect={false}
      error={error}
    />
  );
}
