import { isDeepStrictEqual } from 'node:util';
import type { Settings, SettingsWarning } from '@rhizome/contracts/settings';
import type { EnvOverride } from './env-overrides.ts';
import { formatPath, getAt, type FieldPath } from './object-path.ts';

/** Settings whose change leaves the stored vectors unusable for search until they are re-embedded. */
const embeddingIdentity: readonly (readonly [FieldPath, string])[] = [
  [['embedding', 'provider'], 'Existing embeddings were made by another provider'],
  [['embedding', 'model'], 'Existing embeddings were made by another model'],
  [['search', 'embedding_model'], 'Existing embeddings were made by another model'],
  [['search', 'vector_dimensions'], 'Existing embeddings have a different number of dimensions'],
];

/** What an operator should know about a change from `prev` to `next` (both as stored, before env overrides). */
export function changeWarnings(
  prev: Settings,
  next: Settings,
  envOverrides: readonly EnvOverride[],
): SettingsWarning[] {
  const changed = (path: FieldPath) => !isDeepStrictEqual(getAt(prev, path), getAt(next, path));
  const warnings: SettingsWarning[] = [];
  for (const [path, reason] of embeddingIdentity) {
    if (!changed(path)) continue;
    warnings.push({
      field: formatPath(path),
      message: `${reason}: they are orphaned and must be re-embedded (POST /search/indexes) before semantic search uses them again`,
      severity: 'warning',
    });
  }
  for (const override of envOverrides) {
    if (!changed(override.path)) continue;
    warnings.push({
      field: formatPath(override.path),
      message: `saved, but the environment variable ${override.variable} overrides it while it is set`,
      severity: 'info',
    });
  }
  return warnings;
}
