import { SettingsSchema, secretSettingPaths } from '@rhizome/contracts/settings';
import { settingTexts } from './settings-text.ts';

/** How one setting is edited; derived from the settings schema, so a new key appears without a change here. */
export type FieldKind =
  'boolean' | 'integer' | 'number' | 'choice' | 'text' | 'secret' | 'list' | 'numbers' | 'json' | 'elsewhere';

export interface SettingField {
  key: string;
  label: string;
  /** The unit the input shows its number in ("ms", "s", "MB"). */
  unit?: string;
  /** How many stored units one shown unit is (1048576 for bytes shown as MB); 1 when absent. */
  perUnit?: number;
  kind: FieldKind;
  nullable: boolean;
  readOnly: boolean;
  defaultValue: unknown;
  /** Limits in the shown unit. */
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  choices?: string[];
  description?: string;
}

export interface SettingGroup {
  /** The top-level key PATCH /settings takes; '' for the top-level fields. */
  key: string;
  title: string;
  description: string;
  readOnly: boolean;
  fields: SettingField[];
}

interface JsonSchema {
  type?: string | string[];
  enum?: string[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  patternProperties?: Record<string, JsonSchema>;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  readOnly?: boolean;
  description?: string;
}

const groupText: Record<string, [string, string]> = {
  '': ['General', 'The name shown in the interface and what new sources start as.'],
  local_auth: ['Sign-in', 'Session cookies and the limits on sign-in and key creation attempts.'],
  llm: [
    'Language models',
    'Generation limits, temperatures, thinking and spend caps (the provider itself is under Providers).',
  ],
  ocr: ['Text in images', 'How scans, photos and image-only PDF pages are read: a vision model or offline OCR.'],
  transcription: ['Transcription', 'How the speech of audio and video sources becomes text.'],
  queue: ['Queue', 'Where background tasks wait: embedded, or a Redis-compatible server.'],
  chunking: ['Chunking', 'How documents are cut into passages and groups for extraction.'],
  embedding: ['Embeddings', 'The model that turns text into vectors for semantic search.'],
  search: ['Search', 'Vector search, reranking and result limits.'],
  graphrag: ['Graph retrieval', 'How answers walk the graph from the passages a question matches.'],
  source_processing: ['Source processing', 'Entity extraction, deduplication and relationship confidence.'],
  web: ['Web import', 'Limits on fetching web pages by URL.'],
  extraction: ['Extraction quality', 'Filters and checks applied to extracted entities and relationships.'],
  export: ['Exports', 'Version, license and name written into exported packages.'],
  registry: ['Registry', 'The package registry this service signs in to.'],
  paths: ['Paths', 'Where files live under the data directory (read-only).'],
  priorities: ['Priorities', 'Queue priorities of interactive and background work.'],
  timeouts: ['Timeouts', 'How long calls and tasks may take, in seconds.'],
  ports: ['Ports', 'The ports the services listen on.'],
  batching: ['Batching and uploads', 'Batch sizes, upload limits and the accepted file types.'],
  pagination: ['Pagination', 'Page sizes and the caps of the graph canvas.'],
  retries: ['Retries', 'How often failed calls and tasks are tried again.'],
  services: ['Services', 'Internal addresses the services reach each other at.'],
  backoff: ['Backoff', 'Delays between retries.'],
  analysis: ['Quality analysis', 'Sampling and the low-quality threshold.'],
  chat_context: ['Chat context', 'How the context window is shared between history and the answer.'],
  workers: ['Workers', 'How many tasks run at once.'],
  cors: ['Cross-origin access', 'Which other web origins may call the API from a browser.'],
  custom_settings: ['Custom settings', 'Free-form values for your own plugins and scripts, as JSON.'],
  chat: ['Chat tools', 'When the assistant asks before using a tool, and its tool-call limits.'],
  logging: ['Logging', 'How much the services write to their logs.'],
  backup: ['Scheduled backups', 'How often the active database is backed up and how many copies are kept.'],
  mcp: ['AI agents', 'What agents connected over MCP may do, and their limits.'],
};

/** Keys edited on another tab, with where. */
const editedElsewhere: Record<string, string> = {
  'llm.localllm_instances': 'Edited under Providers.',
  current_database: 'Switched from the header, or under Operations → Databases.',
};

const secretKeys = new Set<string>(secretSettingPaths.map(([group, key]) => `${group}.${key}`));

const acronyms: Record<string, string> = {
  llm: 'LLM',
  ai: 'AI',
  api: 'API',
  url: 'URL',
  urls: 'URLs',
  ttl: 'TTL',
  ssl: 'SSL',
  dpi: 'DPI',
  ms: 'ms',
  mb: 'MB',
  ppr: 'PPR',
  cors: 'CORS',
  http: 'HTTP',
  https: 'HTTPS',
  id: 'ID',
  num: 'number of',
  ctx: 'context',
  localllm: 'local model',
};

/** `max_search_results` → "Max search results". */
export function labelOf(key: string): string {
  const words = key.split('_').map((word) => acronyms[word] ?? word);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function kindOf(path: string, schema: JsonSchema): FieldKind {
  if (editedElsewhere[path]) return 'elsewhere';
  if (secretKeys.has(path)) return 'secret';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.enum) return 'choice';
  if (types.includes('boolean')) return 'boolean';
  if (types.includes('integer')) return 'integer';
  if (types.includes('number')) return 'number';
  if (types.includes('array')) {
    const item = schema.items?.type;
    if (item === 'string') return 'list';
    if (item === 'number' || item === 'integer') return 'numbers';
    return 'elsewhere';
  }
  if (types.includes('object')) return 'json';
  return 'text';
}

// toPrecision drops the float noise of the division (0.3 MB, not 0.30000000000000004).
const toShownUnit = (stored: number, perUnit = 1) =>
  perUnit === 1 ? stored : Number((stored / perUnit).toPrecision(12));

/** A stored number in the unit the field shows it in. */
export function inShownUnit(field: SettingField, stored: number): number {
  return toShownUnit(stored, field.perUnit);
}

function fieldOf(group: string, key: string, schema: JsonSchema, groupReadOnly: boolean): SettingField {
  const path = group ? `${group}.${key}` : key;
  const text = settingTexts[path];
  // A limit in a larger unit is kept to two decimals, inside the stored range (1 byte is "at least 0.01 MB").
  const shown = (limit: number | undefined, round: (value: number) => number) =>
    limit === undefined || !text?.perUnit ? limit : round(toShownUnit(limit, text.perUnit) * 100) / 100;
  return {
    key,
    label: text?.label ?? labelOf(key),
    unit: text?.unit,
    perUnit: text?.perUnit,
    kind: kindOf(path, schema),
    nullable: Array.isArray(schema.type) && schema.type.includes('null'),
    readOnly: groupReadOnly || schema.readOnly === true,
    defaultValue: schema.default,
    minimum: shown(schema.minimum, Math.ceil),
    maximum: shown(schema.maximum, Math.floor),
    minLength: schema.minLength,
    pattern: schema.pattern,
    choices: schema.enum,
    description: editedElsewhere[path] ?? text?.description ?? schema.description,
  };
}

function buildGroups(): SettingGroup[] {
  const root = SettingsSchema as unknown as JsonSchema;
  const general: SettingField[] = [];
  const groups: SettingGroup[] = [];
  for (const [key, schema] of Object.entries(root.properties ?? {})) {
    const [title, description] = groupText[key] ?? [labelOf(key), ''];
    if (schema.properties) {
      const readOnly = schema.readOnly === true;
      groups.push({
        key,
        title,
        description,
        readOnly,
        fields: Object.entries(schema.properties).map(([name, field]) => fieldOf(key, name, field, readOnly)),
      });
    } else if (schema.patternProperties) {
      // A free-form record is one JSON field named like its group.
      groups.push({
        key,
        title,
        description,
        readOnly: false,
        fields: [fieldOf('', key, schema, false)],
      });
    } else {
      general.push(fieldOf('', key, schema, false));
    }
  }
  const [title, description] = groupText[''];
  return [{ key: '', title, description, readOnly: false, fields: general }, ...groups];
}

export const settingGroups: SettingGroup[] = buildGroups();

/** A group's values as the form holds them (the top-level fields for the general group). */
export function valuesOf(group: SettingGroup, settings: Record<string, unknown>): Record<string, unknown> {
  if (!group.key) return Object.fromEntries(group.fields.map((field) => [field.key, settings[field.key]]));
  if (group.fields.length === 1 && group.fields[0].key === group.key) return { [group.key]: settings[group.key] };
  return { ...(settings[group.key] as Record<string, unknown> | undefined) };
}

/** The PATCH /settings body that writes these changed values of a group. */
export function patchOf(group: SettingGroup, changed: Record<string, unknown>): Record<string, unknown> {
  if (!group.key || (group.fields.length === 1 && group.fields[0].key === group.key)) return changed;
  return { [group.key]: changed };
}
