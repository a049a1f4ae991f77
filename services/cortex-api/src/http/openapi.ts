import type { Endpoint } from '@rhizome/contracts/endpoint';
import { ErrorBodySchema } from '@rhizome/contracts/api/common';

/** The OpenAPI 3.1 document of every mounted endpoint (TypeBox schemas are JSON Schema already). */
export function buildOpenApi(endpoints: Endpoint[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of endpoints) {
    const operation: Record<string, unknown> = {
      tags: [spec.tag],
      summary: spec.summary,
      operationId: `${spec.method.toLowerCase()}${spec.path
        .replace(/[{}]/g, '')
        .replace(/\/(\w)/g, (_, c: string) => c.toUpperCase())
        .replace(/[^A-Za-z0-9]/g, '')}`,
      parameters: [...parameters(spec.params, 'path'), ...parameters(spec.query, 'query')],
      responses: responses(spec),
    };
    if (spec.public) operation.security = [];
    if (spec.body || spec.files) operation.requestBody = { required: true, content: requestContent(spec) };
    paths[spec.path] = { ...paths[spec.path], [spec.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Rhizome Service API', version, description: 'Local-first GraphRAG knowledge-graph service' },
    servers: [{ url: '/api/v1' }],
    security: [{ sessionCookie: [] }, { apiKey: [] }],
    components: {
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'cc_session' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'cc_live_… API key' },
      },
      schemas: { Error: ErrorBodySchema },
    },
    paths,
  };
}

/**
 * A request schema as the server applies it: its validator drops unknown fields instead of refusing them (so
 * a neighbouring client version keeps working), which `additionalProperties: false` would deny.
 */
function asAccepted(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asAccepted);
  if (!schema || typeof schema !== 'object') return schema;
  const accepted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key !== 'additionalProperties' || value !== false) accepted[key] = asAccepted(value);
  }
  return accepted;
}

function requestContent(spec: Endpoint): Record<string, unknown> {
  if (spec.consumes !== 'multipart/form-data' || !spec.files)
    return { 'application/json': { schema: asAccepted(spec.body) } };
  const fields = asAccepted(spec.body ?? {}) as { properties?: Record<string, unknown> };
  const file = { type: 'string', format: 'binary' };
  const schema = {
    type: 'object',
    required: [spec.files.field],
    properties: {
      [spec.files.field]: spec.files.multiple ? { type: 'array', items: file } : file,
      ...fields.properties,
    },
  };
  return { 'multipart/form-data': { schema } };
}

function parameters(schema: Endpoint['query'], location: 'path' | 'query'): unknown[] {
  const properties = (schema as { properties?: Record<string, unknown>; required?: string[] } | undefined)?.properties;
  if (!properties) return [];
  const required = new Set((schema as { required?: string[] }).required ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }));
}

function responses(spec: Endpoint): Record<string, unknown> {
  const success: Record<string, unknown> = { description: 'Success' };
  if (spec.response) success.content = { 'application/json': { schema: spec.response } };
  if (spec.produces) success.content = { [spec.produces]: { schema: { type: 'string', format: 'binary' } } };
  const result: Record<string, unknown> = { [spec.status]: success };
  for (const status of spec.errors ?? []) {
    result[status] = {
      description: 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return result;
}
