import { SettingsSchema } from '@rhizome/contracts/settings';

interface SchemaNode {
  type?: unknown;
  properties?: Record<string, SchemaNode>;
  readOnly?: boolean;
}

const root = SettingsSchema as SchemaNode;

/** Top-level keys filled at runtime (data_dir, paths): never taken from a PATCH, the file or the environment. */
export const readOnlySettingKeys: readonly string[] = Object.entries(root.properties ?? {})
  .filter(([, schema]) => schema.readOnly === true)
  .map(([key]) => key);

/** Whether `path` names a key of the schema; any key below a free-form map (custom_settings) counts. */
export function isKnownSettingPath(path: readonly string[]): boolean {
  let node = root;
  for (const segment of path) {
    if (!node.properties) return node.type === 'object';
    if (!Object.hasOwn(node.properties, segment)) return false;
    node = node.properties[segment];
  }
  return true;
}
