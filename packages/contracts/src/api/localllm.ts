import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Body } from './common.ts';

const tag = 'settings';

const ModelName = Type.String({ minLength: 1, maxLength: 300, pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$' });
const InstanceId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'a local model server id (llm.localllm_instances)',
});

const ModelDetails = Type.Object({
  parameter_size: Type.Optional(Type.String()),
  quantization_level: Type.Optional(Type.String()),
  family: Type.Optional(Type.String()),
  format: Type.Optional(Type.String()),
});

/** One frame of the pull stream: progress, then success or error, per server. */
export const PullEvent = Type.Union([
  Type.Object({
    status: Type.Literal('downloading'),
    instance_id: Type.String(),
    completed: Type.Integer(),
    total: Type.Integer(),
    /** The server's own step (pulling manifest, verifying sha256 digest, writing manifest …). */
    message: Type.String(),
  }),
  Type.Object({ status: Type.Literal('success'), instance_id: Type.String() }),
  Type.Object({ status: Type.Literal('error'), instance_id: Type.String(), error: Type.String() }),
]);
export type PullEventBody = Static<typeof PullEvent>;

export const localLlmModelEndpoints = {
  details: endpoint({
    method: 'GET',
    path: '/settings/localllm/models/{model}/details',
    tag,
    status: 200,
    errors: [404, 422, 503],
    summary:
      "A model's modelfile, parameters, template and details from one local model server (a name with a slash is URL-encoded)",
    params: Type.Object({ model: ModelName }),
    query: Type.Object({ instance_id: Type.Optional(InstanceId) }),
    response: Type.Object({
      instance_id: Type.String(),
      modelfile: Type.String(),
      parameters: Type.String(),
      template: Type.String(),
      details: ModelDetails,
      model_info: AnyObject,
      capabilities: Type.Array(Type.String()),
    }),
  }),
  pull: endpoint({
    method: 'POST',
    path: '/settings/localllm/models/pull',
    tag,
    status: 200,
    errors: [404, 422],
    produces: 'text/event-stream',
    summary:
      'Pull a model onto one local model server, or every enabled one: server-sent frames `data: {"status": "downloading"|"success"|"error", "instance_id", …}`; stops when the client goes away',
    body: Body({ model: ModelName, instance_id: Type.Optional(InstanceId) }),
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/settings/localllm/models/remove',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'Remove a model from one local model server, or every enabled one; each server answers for itself',
    body: Body({ model: ModelName, instance_id: Type.Optional(InstanceId) }),
    response: Type.Object({
      success: Type.Boolean(),
      results: Type.Array(
        Type.Object({
          instance_id: Type.String(),
          success: Type.Boolean(),
          error: Type.Union([Type.String(), Type.Null()]),
        }),
      ),
    }),
  }),
};
