import type { Step } from './pair.ts';
import type { DocumentedOperation, JsonSchema as Schema } from '../../support/openapi-operations.ts';

/** The scenario's name for each path parameter: the thing of that kind it made (or a plain value). */
function nameFor(operation: DocumentedOperation, parameter: string): string {
  const byParameter: Record<string, string> = {
    source_id: '{curie}',
    node_id: '{grace}',
    edge_id: '{edge}',
    template_id: '{machine}',
    chat_id: '{chat}',
    workflow_id: '{workflow}',
    trigger_id: '{trigger}',
    tool_id: '{tool}',
    task_id: '{task}',
    execution_id: '{execution}',
    step_id: 'first',
    merge_id: '{merge}',
    proposal_id: '{proposal}',
    filename: '{backup}',
    key_id: '{apikey}',
    preset_id: '{preset}',
    chunk_id: '{chunk}',
    attempt_id: '{attempt}',
    job_id: '{bulkjob}',
    chunk_index: '0',
    name: operation.path.startsWith('/databases') ? 'default' : 'general',
    provider: 'openai',
    queue_name: 'extraction',
    service_name: 'api',
    model: 'none',
    owner: 'nobody',
    tool_type: 'system_tool',
  };
  if (parameter === 'tag_id') return operation.path.startsWith('/nodes') ? '{ntag}' : '{stag}';
  return byParameter[parameter] ?? `unknown-${parameter}`;
}

/** Operations that ask a local model server or the registry, which the run leaves unreachable. */
const outsideServices = /^\/(settings\/localllm|registry)\//;

/** The smallest request body the schema accepts: its required fields with their first or smallest value. */
function sample(schema: Schema | undefined, resolve: (schema: Schema) => Schema, depth = 0): unknown {
  if (!schema) return {};
  schema = resolve(schema);
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variant = schema.anyOf ?? schema.oneOf;
  if (variant) return sample(variant.find((option) => option.type !== 'null') ?? variant[0], resolve, depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties)
    return Object.fromEntries(
      (depth > 3 ? [] : (schema.required ?? [])).map((key) => [
        key,
        sample(schema.properties?.[key], resolve, depth + 1),
      ]),
    );
  if (type === 'array')
    return Array.from({ length: Math.min(schema.minItems ?? 0, 2) }, () => sample(schema.items, resolve, depth + 1));
  if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 1, 1);
  if (type === 'boolean') return false;
  if (type === 'string') return 'parity';
  return {};
}

/**
 * One step per operation the scripted scenario did not reach (`done` holds `METHOD /path` of those it
 * did) and that `excluded` does not name: its path filled with the scenario's things, its body the
 * smallest its schema accepts. Both servers must still answer alike, without a 5xx.
 */
export function sweepSteps(
  openApi: unknown,
  operations: DocumentedOperation[],
  done: Set<string>,
  excluded: Set<string>,
): Step[] {
  const doc = openApi as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema?: Schema }> } }>>;
    components?: { schemas?: Record<string, Schema> };
  };
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? resolve(doc.components?.schemas?.[schema.$ref.split('/').pop()!] ?? {}) : schema;
  return operations
    .filter((operation) => !done.has(`${operation.method} ${operation.path}`))
    .filter((operation) => !excluded.has(`${operation.method} ${operation.path}`))
    .map((operation): Step => {
      const path = operation.path.replace(/\{([^}]+)\}/g, (_, parameter: string) => nameFor(operation, parameter));
      const json = doc.paths[operation.path][operation.method.toLowerCase()].requestBody?.content['application/json'];
      return {
        method: operation.method,
        path,
        body: operation.hasJsonBody ? sample(json?.schema, resolve) : undefined,
        compare: 'status',
        upstream: outsideServices.test(operation.path),
      };
    });
}
