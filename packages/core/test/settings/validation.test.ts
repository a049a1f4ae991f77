import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SettingsStore } from '../../src/settings/index.ts';
import { failureOf, tempSettingsFile } from './support.ts';

const badValues: [string, Record<string, unknown>, (string | number)[], string][] = [
  ['a string for a number', { llm: { ai_temperature: 'hot' } }, ['llm', 'ai_temperature'], 'type'],
  ['a temperature above 2', { llm: { ai_temperature: 2.5 } }, ['llm', 'ai_temperature'], 'maximum'],
  ['a temperature below 0', { llm: { ai_temperature: -0.1 } }, ['llm', 'ai_temperature'], 'minimum'],
  ['a context window below 8192', { llm: { ai_context_window: 4096 } }, ['llm', 'ai_context_window'], 'minimum'],
  ['a fraction for an integer', { queue: { queue_port: 6379.5 } }, ['queue', 'queue_port'], 'type'],
  ['a port above 65535', { queue: { queue_port: 70000 } }, ['queue', 'queue_port'], 'maximum'],
  ['a priority above 100', { priorities: { interactive: 101 } }, ['priorities', 'interactive'], 'maximum'],
  ['an unknown chat provider', { llm: { chat_provider: 'ollama' } }, ['llm', 'chat_provider'], 'enum'],
  [
    'an unknown load balancing mode',
    { llm: { localllm_load_balancing: 'random' } },
    ['llm', 'localllm_load_balancing'],
    'enum',
  ],
  ['an unknown queue backend', { queue: { backend: 'rabbitmq' } }, ['queue', 'backend'], 'enum'],
  ['an unknown log level', { logging: { level: 'TRACE' } }, ['logging', 'level'], 'enum'],
  ['an unknown tool approval mode', { chat: { tool_approval: 'sometimes' } }, ['chat', 'tool_approval'], 'enum'],
  ['a string for a boolean', { dark_mode: 'yes' }, ['dark_mode'], 'type'],
  ['a number for a secret', { llm: { openai_api_key: 42 } }, ['llm', 'openai_api_key'], 'type'],
  ['null for a group', { search: null }, ['search'], 'type'],
  ['an array for a group', { llm: [] }, ['llm'], 'type'],
  ['a string for an array', { llm: { localllm_instances: 'one' } }, ['llm', 'localllm_instances'], 'type'],
  [
    'an instance without id',
    { llm: { localllm_instances: [{ base_url: 'http://h' }] } },
    ['llm', 'localllm_instances', 0, 'id'],
    'missing',
  ],
  [
    'an instance URL that is not http',
    { llm: { localllm_instances: [{ id: 'a', base_url: 'ftp://h' }] } },
    ['llm', 'localllm_instances', 0, 'base_url'],
    'pattern',
  ],
  [
    'a number in a string list',
    { batching: { allowed_content_types: ['text/plain', 1] } },
    ['batching', 'allowed_content_types', 1],
    'type',
  ],
  ['a database name with a path', { current_database: '../etc' }, ['current_database'], 'pattern'],
  ['a string for custom_settings', { custom_settings: 'x' }, ['custom_settings'], 'type'],
];

describe('SettingsStore.patch validation', () => {
  it.each(badValues)('rejects %s with 422 at the right loc and writes nothing', (_name, body, loc, type) => {
    const file = tempSettingsFile();
    const store = SettingsStore.open(file, {});
    store.patch({ app_name: 'Before', llm: { ai_temperature: 0.7 } });
    const bytes = fs.readFileSync(file);
    const effective = store.get();
    let notified = 0;
    store.onChange(() => notified++);

    const error = failureOf(() => store.patch(body));

    expect(error.kind).toBe('invalid');
    expect(error.code).toBe('VALIDATION_FAILED');
    const errors = (error.details as { errors: { loc: unknown[]; msg: string; type: string }[] }).errors;
    expect(errors).toHaveLength(1);
    expect(errors[0].loc).toEqual(['body', ...loc]);
    expect(errors[0].type).toBe(type);
    expect(errors[0].msg).not.toBe('');
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(store.get()).toEqual(effective);
    expect(notified).toBe(0);
  });

  it('reports each bad field once and applies none of the valid ones', () => {
    const file = tempSettingsFile();
    const store = SettingsStore.open(file, {});
    const error = failureOf(() =>
      store.patch({ app_name: 'Never', llm: { ai_temperature: 5, chat_provider: 1 }, queue: { queue_port: 0 } }),
    );
    const locs = (error.details as { errors: { loc: unknown[] }[] }).errors.map((issue) => issue.loc);
    expect(locs).toHaveLength(3);
    expect(locs).toEqual(
      expect.arrayContaining([
        ['body', 'llm', 'ai_temperature'],
        ['body', 'llm', 'chat_provider'],
        ['body', 'queue', 'queue_port'],
      ]),
    );
    expect(store.get().app_name).toBe('Rhizome');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('names the allowed values of an enum in the message', () => {
    const error = failureOf(() => SettingsStore.open(tempSettingsFile(), {}).patch({ logging: { level: 'TRACE' } }));
    const [issue] = (error.details as { errors: { msg: string }[] }).errors;
    expect(issue.msg).toBe('must be one of: DEBUG, INFO, WARNING, ERROR, CRITICAL');
  });
});
