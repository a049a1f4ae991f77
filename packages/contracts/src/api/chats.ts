import { Type, type Static } from '@sinclair/typebox';
import { endpoint } from '../endpoint.ts';
import { AnyObject, Body, Nullable, OneOf, Page, PageQuery, Timestamp } from './common.ts';

const tag = 'chats';
const ChatId = Type.Object({ chat_id: Type.String() });

/** Chat input bounds (docs/api-conventions.md#limits). */
export const chatSendMaxChars = 500_000;
export const chatListQueryMaxChars = 200;

export const chatStatuses = ['active', 'processing', 'completed', 'error'] as const;
export type ChatStatus = (typeof chatStatuses)[number];

/** One message of a chat. */
export const Message = Type.Object({
  id: Type.String(),
  role: Type.String({ description: 'user, assistant or system' }),
  content: Type.String(),
  timestamp: Timestamp,
  extra_metadata: Nullable(AnyObject),
});
export type MessageBody = Static<typeof Message>;

const chatFields = {
  id: Type.String(),
  title: Type.String(),
  status: OneOf(chatStatuses),
  created_at: Timestamp,
  updated_at: Timestamp,
  message_count: Type.Integer(),
  source_ids: Nullable(Type.Array(Type.String(), { description: 'scope; null when unscoped' })),
};

/** A chat: single-chat responses carry every message. */
export const Chat = Type.Object({ ...chatFields, messages: Type.Array(Message) });
export type ChatBody = Static<typeof Chat>;
export const ChatListItem = Type.Object(chatFields);
export type ChatListItemBody = Static<typeof ChatListItem>;

const Scope = {
  source_ids: Type.Optional(Nullable(Type.Array(Type.String()))),
  tag_ids: Type.Optional(
    Nullable(
      Type.Array(Type.String(), { description: 'resolved to the sources carrying them and merged with source_ids' }),
    ),
  ),
};

/** A question to start a chat with, and the entities it is about. */
export const ChatStarter = Type.Object({ question: Type.String(), node_ids: Type.Array(Type.String()) });
export type ChatStarterBody = Static<typeof ChatStarter>;

const TurnQueued = Type.Object({ task_id: Type.String(), status: Type.Literal('processing') });

export const toolApprovalStatuses = ['pending', 'approved', 'rejected', 'expired'] as const;

/** A tool call that asked the operator for approval (`chat.tool_approval`). */
export const ToolApproval = Type.Object({
  tool_call_id: Type.String(),
  tool_name: Type.String(),
  arguments: AnyObject,
  status: OneOf(toolApprovalStatuses),
  turn_id: Type.String(),
  created_at: Timestamp,
  decided_at: Nullable(Timestamp),
});
export type ToolApprovalBody = Static<typeof ToolApproval>;
export type ToolApprovalStatus = (typeof toolApprovalStatuses)[number];

const sseEventTypes = [
  'content',
  'thinking',
  'thinking_delta',
  'tool_calls',
  'cached_tool_calls',
  'tool_start',
  'tool_result',
  'timing_update',
  'iteration_progress',
  'context_info',
  'warning',
  'tool_approval_required',
  'tool_rejected',
  'done',
  'error',
];

export const chatEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/chats',
    tag,
    status: 200,
    errors: [422],
    summary: 'Chats, newest first, without their messages',
    query: Type.Object({
      ...PageQuery,
      scoped: Type.Optional(
        Type.Boolean({ description: 'true: only scoped chats; false: only unscoped; omitted: all' }),
      ),
      q: Type.Optional(
        Type.String({ maxLength: chatListQueryMaxChars, description: 'case-insensitive title substring' }),
      ),
    }),
    response: Page(ChatListItem),
  }),
  create: endpoint({
    method: 'POST',
    path: '/chats',
    tag,
    status: 201,
    errors: [422],
    summary: 'Create a chat, optionally scoped to sources and tagged sources',
    body: Body({ title: Type.String(), ...Scope }),
    response: Chat,
  }),
  deleteAll: endpoint({
    method: 'DELETE',
    path: '/chats',
    tag,
    status: 204,
    summary: 'Delete every chat and message of the current database (irreversible)',
  }),
  count: endpoint({
    method: 'GET',
    path: '/chats/stats/count',
    tag,
    status: 200,
    summary: 'Number of chats',
    response: Type.Object({ count: Type.Integer() }),
  }),
  starters: endpoint({
    method: 'GET',
    path: '/chats/starters',
    tag,
    status: 200,
    errors: [422],
    summary:
      "Questions to start a chat with, built from the graph's most central entities (PageRank); none while the graph is empty",
    query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 12, default: 4 })) }),
    response: Type.Object({ starters: Type.Array(ChatStarter) }),
  }),
  get: endpoint({
    method: 'GET',
    path: '/chats/{chat_id}',
    tag,
    status: 200,
    errors: [404],
    summary: 'A chat with all its messages',
    params: ChatId,
    response: Chat,
  }),
  rename: endpoint({
    method: 'PATCH',
    path: '/chats/{chat_id}',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'Rename a chat',
    params: ChatId,
    body: Body({ title: Type.String() }),
    response: Chat,
  }),
  setStatus: endpoint({
    method: 'PATCH',
    path: '/chats/{chat_id}/status',
    tag,
    status: 200,
    errors: [404, 422],
    summary: "Set a chat's status",
    params: ChatId,
    body: Body({ status: OneOf(chatStatuses) }),
    response: Chat,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/chats/{chat_id}',
    tag,
    status: 204,
    errors: [404],
    summary: 'Delete a chat and its messages',
    params: ChatId,
  }),
  addMessage: endpoint({
    method: 'POST',
    path: '/chats/{chat_id}/messages',
    tag,
    status: 201,
    errors: [404, 422],
    summary: 'Add a message without answering it',
    params: ChatId,
    body: Body({
      role: Type.String({ minLength: 1 }),
      content: Type.String(),
      extra_metadata: Type.Optional(Nullable(AnyObject)),
    }),
    response: Message,
  }),
  messages: endpoint({
    method: 'GET',
    path: '/chats/{chat_id}/messages',
    tag,
    status: 200,
    errors: [404],
    summary: 'Messages, oldest first',
    params: ChatId,
    response: Type.Array(Message),
  }),
  send: endpoint({
    method: 'POST',
    path: '/chats/{chat_id}/send',
    tag,
    status: 202,
    errors: [404, 409, 422, 503],
    summary: 'Save a user message and answer it in the background (follow GET /chats/{chat_id}/events)',
    params: ChatId,
    body: Body({
      content: Type.String({ minLength: 1, maxLength: chatSendMaxChars }),
      replace_from_message_id: Type.Optional(
        Type.String({ description: 'a user message of this chat: the conversation is cut from it (inclusive) first' }),
      ),
    }),
    response: TurnQueued,
  }),
  events: endpoint({
    method: 'GET',
    path: '/chats/{chat_id}/events',
    tag,
    status: 200,
    errors: [404],
    produces: 'text/event-stream',
    params: ChatId,
    summary: `Server-sent events of the chat's turn: frames \`data: {"type": …}\`; types ${sseEventTypes.join(', ')}. An idle chat gets one done (an errored one one error) and the stream closes; a client joining a running turn first gets its events so far (marked \`replayed: true\`, a pending tool_approval_required among them)`,
  }),
  toolDecision: endpoint({
    method: 'POST',
    path: '/chats/{chat_id}/tool_decision',
    tag,
    status: 204,
    errors: [404, 422],
    summary: 'Approve or reject a tool call awaiting approval',
    params: ChatId,
    body: Body({ tool_call_id: Type.String(), decision: OneOf(['approve', 'reject'] as const) }),
  }),
  toolApprovals: endpoint({
    method: 'GET',
    path: '/chats/{chat_id}/tool_approvals',
    tag,
    status: 200,
    errors: [404, 422],
    params: ChatId,
    summary: 'Tool calls that asked for approval, oldest first; pending ones await POST /chats/{chat_id}/tool_decision',
    query: Type.Object({ status: Type.Optional(OneOf(toolApprovalStatuses)) }),
    response: Type.Array(ToolApproval),
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/chats/{chat_id}/cancel',
    tag,
    status: 202,
    errors: [404, 409, 503],
    summary: 'Stop the turn in progress; the partial answer is kept',
    params: ChatId,
    response: Type.Object({ status: Type.Literal('cancelling') }),
  }),
  retry: endpoint({
    method: 'POST',
    path: '/chats/{chat_id}/retry',
    tag,
    status: 202,
    errors: [404, 409, 503],
    summary: 'Answer the last user message again from the existing history',
    params: ChatId,
    response: TurnQueued,
  }),
  regenerate: endpoint({
    method: 'POST',
    path: '/chats/{chat_id}/regenerate',
    tag,
    status: 202,
    errors: [404, 409, 503],
    summary: 'Drop everything after the last user message and answer it again',
    params: ChatId,
    response: TurnQueued,
  }),
  export: endpoint({
    method: 'GET',
    path: '/chats/{chat_id}/export',
    tag,
    status: 200,
    errors: [404, 422],
    params: ChatId,
    summary:
      'The chat as JSON ({data: Chat}, documented here), or with format=markdown a text/markdown attachment: role headings, entities in bold, citations as numbered footnotes',
    query: Type.Object({ format: Type.Optional(OneOf(['json', 'markdown'] as const)) }),
    response: Type.Object({ data: Chat }),
  }),
  generateTitle: endpoint({
    method: 'POST',
    path: '/chats/{chat_id}/generate_title',
    tag,
    status: 200,
    errors: [404],
    summary: 'Title the chat (3–6 words) from its first user message',
    params: ChatId,
    response: Chat,
  }),
  setScope: endpoint({
    method: 'PATCH',
    path: '/chats/{chat_id}/scope',
    tag,
    status: 200,
    errors: [404, 422],
    summary: 'Restrict the chat to sources and tagged sources (both empty: unscoped)',
    params: ChatId,
    body: Body(Scope),
    response: Chat,
  }),
  clearScope: endpoint({
    method: 'DELETE',
    path: '/chats/{chat_id}/scope',
    tag,
    status: 200,
    errors: [404],
    summary: 'Search every enabled source again',
    params: ChatId,
    response: Chat,
  }),
};
