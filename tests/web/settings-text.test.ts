import { describe, expect, it } from 'vitest';
import { settingGroups } from '../../packages/web/src/screens/settings/settings-fields.ts';
import { settingTexts } from '../../packages/web/src/screens/settings/settings-text.ts';
import { changesOf, toFormValue } from '../../packages/web/src/screens/settings/settings-values.ts';

const fields = settingGroups.flatMap((group) =>
  group.fields.map((field) => ({
    group,
    field,
    path: group.key && group.key !== field.key ? `${group.key}.${field.key}` : field.key,
  })),
);

describe('settings are worded for people', () => {
  it('gives every setting a written, sentence-case label', () => {
    expect(fields.filter(({ path }) => !settingTexts[path]).map(({ path }) => path)).toEqual([]);
    for (const { field, path } of fields) {
      expect(field.label, path).toMatch(/^[A-Z0-9]/);
      expect(field.label, path).not.toMatch(/_|\bms\b|\bmb\b|\bttl\b|\bnum\b|\bmax\b|\bmin\b/i);
    }
  });

  it('shows the unit of every duration and size', () => {
    const measured = fields.filter(
      ({ path, group }) =>
        /(_ms|_seconds|_bytes|_mb|_hours|timeout|_ttl|interval|delay|max_seconds)$/.test(path) ||
        (group.key === 'timeouts' && !path.endsWith('_count')),
    );
    expect(measured.length).toBeGreaterThan(25);
    for (const { field, path } of measured) expect(field.unit, path).toMatch(/^(ms|s|h|MB|KB)$/);
  });

  it('edits a size in MB and stores it in bytes', () => {
    const web = settingGroups.find((group) => group.key === 'web')!;
    const field = web.fields.find((candidate) => candidate.key === 'max_fetch_bytes')!;
    // The stored minimum of 1 byte reads as a limit a person can type, not as 9.5367431640625e-7.
    expect(field).toMatchObject({ label: 'Largest page imported', unit: 'MB', minimum: 0.01 });
    expect(toFormValue(field, 104_857_600)).toBe(100);
    const saved = { max_fetch_bytes: 104_857_600 };
    const form = Object.fromEntries(
      web.fields.map((each) => [each.key, toFormValue(each, saved[each.key as 'max_fetch_bytes'])]),
    );
    expect(changesOf(web, saved, { ...form, max_fetch_bytes: 100 }).changed).not.toHaveProperty('max_fetch_bytes');
    expect(changesOf(web, saved, { ...form, max_fetch_bytes: 2.5 }).changed.max_fetch_bytes).toBe(2_621_440);
  });
});
