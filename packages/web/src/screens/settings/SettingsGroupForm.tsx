import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Alert, Button, Card, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { settingsEndpoints } from '@rhizome/contracts/api/settings';
import { RequestError } from '@rhizome/client';
import { messageOf } from '../../lib/api.ts';
import { patchOf, valuesOf, type SettingGroup } from './settings-fields.ts';
import { changesOf, fieldKeyOf, fieldMessage, toFormValue, type FormValue } from './settings-values.ts';
import { SettingsField } from './SettingsField.tsx';
import { useAction } from '../../lib/data/use-action.ts';

interface Props {
  group: SettingGroup;
  settings: Record<string, unknown>;
}

type Warning = { field: string; message: string; severity: string };

const formOf = (group: SettingGroup, saved: Record<string, unknown>) =>
  Object.fromEntries(group.fields.map((field) => [field.key, toFormValue(field, saved[field.key])])) as Record<
    string,
    FormValue
  >;

/** One settings group as a form generated from the schema: save sends only what changed; errors show at their field. */
export function SettingsGroupForm({ group, settings }: Props) {
  const patch = useAction(settingsEndpoints.patch);
  const saved = useMemo(() => valuesOf(group, settings), [group, settings]);
  const [form, setForm] = useState(() => formOf(group, saved));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<Warning[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setForm(formOf(group, saved));
    setErrors({});
    setFailure(null);
  }, [group, saved]);

  const pristine = useMemo(() => JSON.stringify(formOf(group, saved)), [group, saved]);
  const dirty = JSON.stringify(form) !== pristine;

  const update = (key: string, value: FormValue) => {
    setForm((current) => ({ ...current, [key]: value }));
    setErrors(({ [key]: _dropped, ...rest }) => rest);
  };

  function restoreDefaults() {
    setForm((current) =>
      Object.fromEntries(
        group.fields.map((field) => [
          field.key,
          field.kind === 'secret' ? current[field.key] : toFormValue(field, field.defaultValue),
        ]),
      ),
    );
    setErrors({});
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const result = changesOf(group, saved, form);
    setFailure(null);
    setWarnings([]);
    if (Object.keys(result.errors).length) {
      setErrors(result.errors);
      return;
    }
    setBusy(true);
    try {
      const answer = await patch.run({ body: patchOf(group, result.changed) });
      setWarnings(answer.warnings);
      notifications.show({ color: 'teal', message: `${group.title} saved.` });
    } catch (error) {
      if (error instanceof RequestError && error.issues.length) {
        const byField: Record<string, string> = {};
        const unplaced: string[] = [];
        for (const issue of error.issues) {
          const key = fieldKeyOf(group, issue);
          const field = group.fields.find((candidate) => candidate.key === key);
          if (field && key) byField[key] ??= fieldMessage(field, issue);
          else unplaced.push(issue.msg);
        }
        setErrors(byField);
        setFailure(unplaced.length ? unplaced.join('; ') : 'Nothing was saved: correct the highlighted fields.');
      } else {
        setFailure(messageOf(error));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder radius="md" component="section" aria-labelledby={`settings-group-${group.key || 'general'}`}>
      <Title order={2} fz="md" id={`settings-group-${group.key || 'general'}`}>
        {group.title}
      </Title>
      {group.description && (
        <Text fz="sm" c="dimmed" mb="md">
          {group.description}
        </Text>
      )}
      <form onSubmit={save} noValidate>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="md">
          {group.fields.map((field) => (
            <SettingsField
              key={field.key}
              field={field}
              value={form[field.key] ?? null}
              saved={saved[field.key]}
              error={errors[field.key]}
              onChange={(value) => update(field.key, value)}
            />
          ))}
        </SimpleGrid>
        {failure && (
          <Alert color="red" mt="md" role="alert">
            {failure}
          </Alert>
        )}
        {warnings.map((warning) => (
          <Alert
            key={warning.field + warning.message}
            color={warning.severity === 'warning' ? 'yellow' : 'blue'}
            mt="md"
            title={warning.field}
          >
            {warning.message}
          </Alert>
        ))}
        {!group.readOnly && (
          <Group justify="flex-end" mt="lg" gap="xs">
            <Button
              variant="default"
              onClick={restoreDefaults}
              title="Fills in the default values; nothing changes until you save (stored secrets are kept)"
            >
              Fill in defaults
            </Button>
            <Button variant="default" onClick={() => setForm(formOf(group, saved))} disabled={!dirty}>
              Undo changes
            </Button>
            <Button type="submit" loading={busy} disabled={!dirty}>
              Save {group.title.toLowerCase()}
            </Button>
          </Group>
        )}
      </form>
    </Card>
  );
}
