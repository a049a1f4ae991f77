import { RequestError } from '@rhizome/client';
import { fromDraft, PropertyField, type Draft, type PropertyDefinition } from '../../components/PropertyField.tsx';
import type { Failure } from '../../lib/use-submit.ts';

/** The drafts of a template's properties turned into the properties the API receives (empty ones left out). */
export function propertiesOf(
  definitions: PropertyDefinition[],
  drafts: Record<string, Draft>,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const definition of definitions) {
    const value = fromDraft(definition, drafts[definition.name] ?? null);
    if (value !== null) properties[definition.name] = value;
  }
  return properties;
}

/** A template's properties as form fields, each showing the API's complaint about it. */
export function PropertyFields({
  definitions,
  drafts,
  failure,
  onChange,
}: {
  definitions: PropertyDefinition[];
  drafts: Record<string, Draft>;
  failure: Failure;
  onChange: (name: string, value: Draft) => void;
}) {
  return (
    <>
      {definitions.map((definition) => (
        <PropertyField
          key={definition.name}
          definition={definition}
          value={drafts[definition.name] ?? null}
          error={failure instanceof RequestError ? failure.issueFor(definition.name) : undefined}
          onChange={(value) => onChange(definition.name, value)}
        />
      ))}
    </>
  );
}
