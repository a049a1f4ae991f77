import { Autocomplete } from '@mantine/core';

/** The text before an unfinished `{{…` at the end and what was typed of it; null when none is open. */
function openReference(text: string): { before: string; typed: string } | null {
  if (!text) return { before: '', typed: '' };
  const start = text.lastIndexOf('{{');
  if (start < 0 || text.includes('}}', start)) return null;
  return { before: text.slice(0, start), typed: text.slice(start + 2).trim() };
}

/**
 * A text input that offers the references a step may use: while a `{{` is open at the end (or the field
 * is empty), the matching `{{inputs.…}}` and `{{steps.<id>.output…}}` are listed and one completes the text.
 */
export function ReferenceField({
  label,
  description,
  required,
  error,
  value,
  references,
  onChange,
}: {
  label: string;
  description?: string;
  required?: boolean;
  error?: string;
  value: string;
  references: string[];
  onChange: (value: string) => void;
}) {
  const open = openReference(value);
  const offered = open
    ? references
        .filter((reference) => reference.slice(2).startsWith(open.typed))
        .map((reference) => ({ value: `${open.before}${reference}`, label: reference }))
    : [];
  return (
    <Autocomplete
      label={label}
      description={description}
      required={required}
      error={error}
      value={value}
      onChange={onChange}
      data={offered}
      // The options are already the ones that fit what was typed.
      filter={({ options }) => options}
      limit={30}
    />
  );
}
