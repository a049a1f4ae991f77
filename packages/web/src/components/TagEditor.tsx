import { useRef, useState, type KeyboardEvent } from 'react';
import { ActionIcon, Autocomplete, Badge, Button, Group, Text, type GroupProps } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconX } from '@tabler/icons-react';
import { messageOf } from '../lib/api.ts';

export interface TagRef {
  id: string;
  name: string;
  color: string | null;
}

/** A tag as a badge in its own colour (or the theme's), with an optional button taking it off. */
export function TagBadge({ tag, onRemove }: { tag: TagRef; onRemove?: () => void }) {
  return (
    <Badge
      variant="light"
      color={tag.color ?? 'grape'}
      tt="none"
      rightSection={
        onRemove && (
          <ActionIcon
            size={16}
            variant="transparent"
            color={tag.color ?? 'grape'}
            aria-label={`Remove the tag ${tag.name}`}
            onClick={onRemove}
          >
            <IconX size={12} />
          </ActionIcon>
        )
      }
    >
      {tag.name}
    </Badge>
  );
}

export interface TagEditorProps extends Omit<GroupProps, 'children'> {
  /** The group's accessible name (`Entity tags`, `Source tags`). */
  label: string;
  /** The add field's accessible name. */
  fieldLabel?: string;
  /** The tags the item carries, in the order shown. */
  tags: readonly TagRef[];
  /** Every tag of the kind, suggested by name (those the item carries left out). */
  known: readonly { id: string; name: string }[];
  /** Finds or creates the tag of this name and puts it on the item; resolves once the item shows it. */
  add(name: string): Promise<unknown>;
  /** Takes the tag off the item; resolves once the item no longer shows it. */
  remove(tag: TagRef): Promise<unknown>;
}

/**
 * The tags of one item (an entity, a source): each a badge with a × taking it off, and a field that
 * suggests the known tags. Enter or *Add* puts the typed name on (a name that exists, in any case, is
 * that tag); picking a suggestion puts it on; Backspace in the empty field takes the last tag off. The
 * field empties as a name is submitted, so the next can be typed while the change is saved; a failure
 * is shown and gives the name back.
 */
export function TagEditor({ label, fieldLabel = 'Add a tag', tags, known, add, remove, ...group }: TagEditorProps) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  /** A picked suggestion, which the field would show again right after it was submitted. */
  const picked = useRef<string | null>(null);
  const run = async (what: string, change: () => Promise<unknown>, typed?: string) => {
    setBusy(true);
    try {
      await change();
    } catch (error) {
      if (typed !== undefined) setName((current) => current || typed);
      notifications.show({ color: 'red', title: `Could not ${what}`, message: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };
  const carried = new Set(tags.map((tag) => tag.id));
  const submit = (typed: string) => {
    const wanted = typed.trim();
    if (!wanted || busy) return;
    setName('');
    // A name the item carries already (in any case) is left as it is.
    if (tags.some((tag) => tag.name.toLowerCase() === wanted.toLowerCase())) return;
    void run(`add the tag ${wanted}`, () => add(wanted), typed);
  };
  const takeOff = (tag: TagRef) => void run(`remove the tag ${tag.name}`, () => remove(tag));
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // With a suggestion picked by the arrow keys, Enter submits that suggestion (onOptionSubmit) instead.
    if (event.key === 'Enter' && !event.currentTarget.getAttribute('aria-activedescendant')) submit(name);
    if (event.key === 'Backspace' && !name && !busy && tags.length) takeOff(tags[tags.length - 1]);
  };
  return (
    <Group gap="xs" align="center" wrap="wrap" aria-label={label} role="group" {...group}>
      <Text fz="sm" c="dimmed">
        Tags
      </Text>
      {tags.length === 0 && (
        <Text fz="sm" c="dimmed" fs="italic">
          none yet
        </Text>
      )}
      {tags.map((tag) => (
        <TagBadge key={tag.id} tag={tag} onRemove={() => takeOff(tag)} />
      ))}
      <Group gap={4} wrap="nowrap">
        <Autocomplete
          aria-label={fieldLabel}
          placeholder="Add a tag"
          size="xs"
          w={160}
          data={known.filter((tag) => !carried.has(tag.id)).map((tag) => tag.name)}
          value={name}
          onChange={(value) => {
            const echo = value === picked.current;
            picked.current = null;
            if (!echo) setName(value);
          }}
          onOptionSubmit={(value) => {
            picked.current = value;
            submit(value);
          }}
          maxLength={64}
          onKeyDown={onKeyDown}
        />
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPlus size={14} />}
          disabled={!name.trim()}
          loading={busy}
          onClick={() => submit(name)}
        >
          Add
        </Button>
      </Group>
    </Group>
  );
}
