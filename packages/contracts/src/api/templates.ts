import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Body, Nullable, Page, PageQuery, Timestamp, QueuedTask } from './common.ts';

const tag = 'templates';

/** Every type a template property can have. */
export const propertyTypeNames = [
  'string',
  'text',
  'integer',
  'float',
  'boolean',
  'date',
  'datetime',
  'url',
  'email',
  'enum',
  'json',
  'node_reference',
  'node_reference_list',
] as const;
export type PropertyTypeName = (typeof propertyTypeNames)[number];

export const templateTypeNames = ['node', 'edge'] as const;
export type TemplateTypeName = (typeof templateTypeNames)[number];

/** A plain string enum: one `enum` error instead of one per literal of a union. */
function StringEnum<T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export const PropertyTypeSchema = StringEnum(propertyTypeNames, { description: 'one of the 13 property types' });
export const TemplateTypeSchema = StringEnum(templateTypeNames);
const Color = Type.String({
  pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$',
  description: 'hex code, e.g. #2563eb',
});
const TemplateName = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: 'must not start with system_',
});

/** A property definition as clients send it: unknown fields are dropped. */
export const PropertyDefinitionSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'unique within the template' }),
    display_name: Type.String({ minLength: 1, maxLength: 200 }),
    property_type: PropertyTypeSchema,
    required: Type.Optional(Type.Boolean({ default: false, description: 'required when creating nodes/edges' })),
    default_value: Type.Optional(Type.Unknown({ description: 'must itself be valid for the type' })),
    enum_values: Type.Optional(
      Nullable(Type.Array(Type.String(), { maxItems: 1000, description: 'allowed values, for type enum' })),
    ),
    description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
    validation_pattern: Type.Optional(
      Nullable(Type.String({ maxLength: 1000, description: 'a JavaScript regular expression' })),
    ),
    allowed_node_types: Type.Optional(
      Nullable(
        Type.Array(Type.String({ minLength: 1 }), {
          maxItems: 500,
          description: 'node template ids, for node_reference(_list)',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

/** A property definition as the API returns it: every field present. */
export const PropertyDefinitionResponse = Type.Object({
  name: Type.String(),
  display_name: Type.String(),
  property_type: PropertyTypeSchema,
  required: Type.Boolean(),
  default_value: Type.Unknown(),
  enum_values: Nullable(Type.Array(Type.String())),
  description: Nullable(Type.String()),
  validation_pattern: Nullable(Type.String()),
  allowed_node_types: Nullable(Type.Array(Type.String())),
});

export const TemplateResponseSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  template_type: TemplateTypeSchema,
  icon: Nullable(Type.String()),
  color: Nullable(Type.String()),
  properties: Type.Array(PropertyDefinitionResponse),
  is_system: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type TemplateResponse = Static<typeof TemplateResponseSchema>;

export const TemplateCreateBody = Body({
  name: TemplateName,
  template_type: TemplateTypeSchema,
  description: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  icon: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  color: Type.Optional(Nullable(Color)),
  properties: Type.Optional(Type.Array(PropertyDefinitionSchema, { maxItems: 500, default: [] })),
  source_id: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'for enabled filtering' }))),
});
export type TemplateCreate = Static<typeof TemplateCreateBody>;

export const TemplateUpdateBody = Body({
  name: Type.Optional(TemplateName),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  icon: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  color: Type.Optional(Nullable(Color)),
  properties: Type.Optional(
    Type.Array(PropertyDefinitionSchema, { maxItems: 500, description: 'replaces the entire list' }),
  ),
});
export type TemplateUpdate = Static<typeof TemplateUpdateBody>;

/** Batch `delete` data: the template id and the query option of DELETE /templates/{id}. */
export const TemplateDeleteData = Body({
  id: Type.String({ minLength: 1 }),
  force: Type.Optional(Type.Boolean({ default: false })),
});
/** Batch `update` data: the template id plus the PATCH body. */
export const TemplateBatchUpdateData = Body({ id: Type.String({ minLength: 1 }), ...TemplateUpdateBody.properties });

export const templateBatchOperationNames = ['create', 'update', 'delete'] as const;
export const TemplateBatchBody = Body({
  operations: Type.Array(
    Type.Object(
      { operation: StringEnum(templateBatchOperationNames), data: AnyObject },
      { additionalProperties: false },
    ),
    { minItems: 1, maxItems: 1000 },
  ),
});

const TemplateId = Type.Object({ template_id: Type.String({ minLength: 1 }) });

export const templateEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/templates',
    tag,
    status: 200,
    errors: [422],
    summary: 'Templates, optionally of one type',
    query: Type.Object({ template_type: Type.Optional(TemplateTypeSchema), ...PageQuery }),
    response: Page(TemplateResponseSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: '/templates',
    tag,
    status: 201,
    errors: [400, 422],
    summary: 'Create a node or edge template',
    body: TemplateCreateBody,
    response: TemplateResponseSchema,
  }),
  get: endpoint({
    method: 'GET',
    path: '/templates/{template_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'One template',
    params: TemplateId,
    response: TemplateResponseSchema,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/templates/{template_id}',
    tag,
    status: 200,
    errors: [400, 404, 422],
    summary: 'Update a template; properties replace the entire list; system templates cannot be renamed',
    params: TemplateId,
    body: TemplateUpdateBody,
    response: TemplateResponseSchema,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/templates/{template_id}',
    tag,
    status: 204,
    errors: [400, 404, 409, 422],
    summary: 'Delete a template; with force=true also the nodes and edges that use it',
    params: TemplateId,
    query: Type.Object({
      force: Type.Optional(
        Type.Boolean({ default: false, description: 'delete even when nodes or edges use the template' }),
      ),
    }),
  }),
  embeddings: endpoint({
    method: 'POST',
    path: '/templates/embeddings',
    tag,
    status: 202,
    errors: [503],
    summary: 'Regenerate the embeddings of every template in the background',
    response: QueuedTask,
  }),
  batch: endpoint({
    method: 'POST',
    path: '/templates/batch',
    tag,
    status: 202,
    errors: [422, 503],
    summary:
      'Create, update and delete templates in order on the operations queue; a failure does not stop later operations',
    body: TemplateBatchBody,
    response: QueuedTask,
  }),
};
