import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { Nullable, OneOf } from './common.ts';
import { searchTypes, type SearchType } from './search.ts';

/**
 * The OpenAI-compatible face: chat front ends and SDKs that speak OpenAI's chat completions protocol
 * get answers from the knowledge base. Errors on these paths use OpenAI's shape, not the envelope.
 */
const tag = 'openai';

/**
 * Model names: `rhizome` answers from the active database with the engine's own retrieval (each tool
 * its search mode), `rhizome-<mode>` searches with that mode only; `:<database>` after either names the
 * database, e.g. `rhizome-graph:archive`.
 */
export const defaultModel = 'rhizome';
const databaseSeparator = ':';

export interface ModelChoice {
  /** The search mode every retrieval of the answer uses; null: each retrieval tool's own. */
  mode: SearchType | null;
  /** null: the active database. */
  database: string | null;
}

export function modelName({ mode, database }: ModelChoice): string {
  return `${defaultModel}${mode ? `-${mode}` : ''}${database === null ? '' : `${databaseSeparator}${database}`}`;
}

/** What a model name asks for; null when it is not one of ours. */
export function parseModelName(model: string): ModelChoice | null {
  const at = model.indexOf(databaseSeparator);
  const base = at < 0 ? model : model.slice(0, at);
  const database = at < 0 ? null : model.slice(at + 1);
  if (database === '') return null;
  if (base === defaultModel) return { mode: null, database };
  const mode = searchTypes.find((type) => base === `${defaultModel}-${type}`);
  return mode ? { mode, database } : null;
}

export const openAiMessageRoles = ['system', 'developer', 'user', 'assistant', 'tool'] as const;

const TextPart = Type.Object({ type: Type.String(), text: Type.Optional(Type.String()) });

export const OpenAiMessage = Type.Object({
  role: OneOf(openAiMessageRoles),
  content: Type.Union([Type.String(), Type.Array(TextPart), Type.Null()], {
    description: 'text, or content parts of which the text parts are read',
  }),
});
export type OpenAiMessageBody = Static<typeof OpenAiMessage>;

/** Unknown fields (tools, top_p, n, …) are ignored rather than refused: clients send many of them by default. */
export const ChatCompletionRequest = Type.Object(
  {
    model: Type.String({
      minLength: 1,
      description:
        "'rhizome' (the active database), 'rhizome-<keyword|semantic|hybrid|graph>' (one search mode), either with ':<database>'",
    }),
    messages: Type.Array(OpenAiMessage, {
      minItems: 1,
      description:
        "the last is the question; system and developer messages add instructions below Rhizome's citation rules",
    }),
    stream: Type.Optional(Type.Boolean({ default: false })),
    stream_options: Type.Optional(Type.Object({ include_usage: Type.Optional(Type.Boolean()) })),
    temperature: Type.Optional(
      Nullable(
        Type.Number({ minimum: 0, maximum: 2, description: "the sampling temperature of the answer's model calls" }),
      ),
    ),
    max_tokens: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, description: 'the output token limit of each model call of the answer' })),
    ),
    max_completion_tokens: Type.Optional(
      Nullable(
        Type.Integer({ minimum: 1, description: 'the same as max_tokens (newer clients send this one); wins over it' }),
      ),
    ),
    user: Type.Optional(
      Type.String({ maxLength: 256, description: "who asked; kept on the question's message of a saved chat" }),
    ),
    metadata: Type.Optional(
      Type.Object(
        {
          save: Type.Optional(Type.Union([Type.Boolean(), Type.String()])),
          source_ids: Type.Optional(
            Type.String({ maxLength: 512, description: 'comma-separated ids of the only sources the answer draws on' }),
          ),
          tag_ids: Type.Optional(
            Type.String({
              maxLength: 512,
              description: 'comma-separated ids of tags whose sources the answer draws on',
            }),
          ),
        },
        {
          description:
            'save: true keeps the exchange as a Rhizome chat; source_ids and tag_ids scope it as a chat is scoped',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ChatCompletionRequestBody = Static<typeof ChatCompletionRequest>;

/** One source an answer cites, numbered as in the answer's text. */
export const CompletionCitation = Type.Object({
  index: Type.Integer({ description: 'the [n] the text cites it by' }),
  source_id: Type.String(),
  filename: Type.String(),
  page: Nullable(Type.Integer()),
  chunk_id: Type.String(),
  sentences: Type.Array(Type.String(), { description: 'the cited sentences' }),
});
export type CompletionCitationBody = Static<typeof CompletionCitation>;

export const CompletionUsage = Type.Object({
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
});
export type CompletionUsageBody = Static<typeof CompletionUsage>;

export const finishReasons = ['stop', 'length'] as const;

export const ChatCompletion = Type.Object({
  id: Type.String(),
  object: Type.Literal('chat.completion'),
  created: Type.Integer(),
  model: Type.String(),
  choices: Type.Array(
    Type.Object({
      index: Type.Integer(),
      message: Type.Object({ role: Type.Literal('assistant'), content: Type.String(), refusal: Type.Null() }),
      finish_reason: OneOf(finishReasons),
      logprobs: Type.Null(),
    }),
  ),
  usage: CompletionUsage,
  citations: Type.Array(CompletionCitation, { description: 'extension: the sources the answer cites' }),
  chat_id: Type.Optional(Type.String({ description: 'extension: the saved chat, with metadata.save' })),
});
export type ChatCompletionBody = Static<typeof ChatCompletion>;

export const Model = Type.Object({
  id: Type.String(),
  object: Type.Literal('model'),
  created: Type.Integer(),
  owned_by: Type.String(),
});
export type ModelBody = Static<typeof Model>;

export const openAiEndpoints = {
  models: endpoint({
    method: 'GET',
    path: '/openai/v1/models',
    tag,
    status: 200,
    errors: [401],
    summary:
      "Models: 'rhizome' and one per search mode ('rhizome-graph', …) for the active database, and each again as '…:<database>'",
    response: Type.Object({ object: Type.Literal('list'), data: Type.Array(Model) }),
  }),
  chatCompletions: endpoint({
    method: 'POST',
    path: '/openai/v1/chat/completions',
    tag,
    status: 200,
    errors: [400, 401, 404, 503],
    summary:
      'An answer from the knowledge base with citations; with stream: true, chat.completion.chunk server-sent events ending [DONE]',
    body: ChatCompletionRequest,
    response: ChatCompletion,
  }),
};
