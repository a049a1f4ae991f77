import {
  Button,
  Group,
  JsonInput,
  NumberInput,
  PasswordInput,
  Select,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { inShownUnit, type SettingField } from './settings-fields.ts';
import { choiceLabel } from './settings-text.ts';
import type { FormValue } from './settings-values.ts';

interface Props {
  field: SettingField;
  value: FormValue;
  /** The saved value (for a secret: whether one is stored). */
  saved: unknown;
  error?: string;
  onChange: (value: FormValue) => void;
}

/** A value as the description states it: in the field's unit, a choice in words. */
function spoken(field: SettingField, value: unknown): string {
  if (value === null) return 'none';
  if (Array.isArray(value)) return value.join(', ') || 'none';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value === 'number') return `${inShownUnit(field, value)}${field.unit ? `\u00a0${field.unit}` : ''}`;
  if (field.kind === 'choice') return choiceLabel(String(value));
  return String(value);
}

function describe(field: SettingField): string | undefined {
  const parts: string[] = [];
  if (field.description) parts.push(field.description);
  // A number and its unit never part at a line break ("0 / ms").
  const unit = field.unit ? `\u00a0${field.unit}` : '';
  if (field.minimum !== undefined && field.maximum !== undefined)
    parts.push(`${field.minimum} to ${field.maximum}${unit}`);
  else if (field.minimum !== undefined) parts.push(`At least ${field.minimum}${unit}`);
  else if (field.maximum !== undefined) parts.push(`At most ${field.maximum}${unit}`);
  const fallback = field.defaultValue;
  if (
    field.kind !== 'secret' &&
    fallback !== undefined &&
    fallback !== '' &&
    !(Array.isArray(fallback) && fallback.length > 8)
  ) {
    parts.push(`Default: ${spoken(field, fallback)}`);
  }
  if (!parts.length) return undefined;
  // A written sentence ends with its own full stop; the limits follow it, not a "·" after the stop.
  const [first, ...facts] = parts;
  if (!field.description || !/[.!?]$/.test(first)) return parts.join(' · ');
  return facts.length ? `${first} ${facts.join(' · ')}` : first;
}

function UnitOf({ unit }: { unit: string }) {
  return (
    <Text fz="sm" c="dimmed" aria-hidden>
      {unit}
    </Text>
  );
}

/** One setting's input, chosen by its kind in the settings schema. */
export function SettingsField({ field, value, saved, error, onChange }: Props) {
  const common = { label: field.label, description: describe(field), error, disabled: field.readOnly };
  switch (field.kind) {
    case 'boolean':
      return (
        <Switch
          label={field.label}
          description={common.description}
          error={error}
          disabled={field.readOnly}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
    case 'integer':
    case 'number':
      return (
        <NumberInput
          {...common}
          value={value === null ? '' : (value as number | string)}
          onChange={(next) => onChange(next)}
          allowDecimal={field.kind === 'number' || Boolean(field.perUnit)}
          rightSection={field.unit && <UnitOf unit={field.unit} />}
          rightSectionWidth={field.unit ? `calc(${field.unit.length}ch + 20px)` : undefined}
          rightSectionPointerEvents="none"
          // The server's answer says what is wrong, next to the field; clamping would hide the mistake.
          clampBehavior="none"
          placeholder={field.nullable ? 'No limit' : undefined}
        />
      );
    case 'choice':
      return (
        <Select
          {...common}
          data={(field.choices ?? []).map((choice) => ({ value: choice, label: choiceLabel(choice) }))}
          value={(value as string) || null}
          onChange={(next) => onChange(next ?? '')}
          allowDeselect={field.nullable}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'secret':
      return (
        <div>
          <PasswordInput
            {...common}
            description={saved ? 'A value is stored; it is never shown. Type a new one to replace it.' : 'Not set.'}
            placeholder={value === null ? 'Will be removed when you save' : saved ? '••••••••' : ''}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => onChange(event.currentTarget.value)}
            autoComplete="off"
          />
          {Boolean(saved) && value !== null && (
            <Button variant="subtle" color="red" size="compact-xs" mt={4} onClick={() => onChange(null)}>
              Remove the stored value
            </Button>
          )}
          {value === null && (
            <Button variant="subtle" size="compact-xs" mt={4} onClick={() => onChange('')}>
              Keep the stored value
            </Button>
          )}
        </div>
      );
    case 'list':
    case 'numbers':
      return (
        <TagsInput
          {...common}
          value={value as string[]}
          onChange={onChange}
          placeholder="Type and press Enter"
          splitChars={[',', ' ']}
          clearable
        />
      );
    case 'json':
      return <JsonInput {...common} value={value as string} onChange={onChange} autosize minRows={3} />;
    case 'elsewhere':
      return (
        <Group gap="xs">
          <Text fz="sm" fw={500}>
            {field.label}
          </Text>
          <Text fz="sm" c="dimmed">
            {field.description}
          </Text>
        </Group>
      );
    default:
      return (
        <TextInput
          {...common}
          value={(value as string | null) ?? ''}
          onChange={(event) => onChange(event.currentTarget.value)}
          placeholder={field.nullable ? 'Not set' : undefined}
        />
      );
  }
}
