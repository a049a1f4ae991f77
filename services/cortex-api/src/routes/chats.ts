import { chatEndpoints as api } from '@rhizome/contracts/api/chats';
import { chatModule, isFinalEvent, subscribeChatEvents, type ChatEvent } from '@rhizome/core/chat';
import { ChatEventFeed } from '@rhizome/core/chat';
import { chatStarters, chatToMarkdown, exportFilename } from '@rhizome/core/chat';
import { graphModule } from '@rhizome/core/graph';
import { searchModule } from '@rhizome/core/search';
import type { ChatService } from '@rhizome/core/chat';
import type { Platform } from '@rhizome/core/platform';
import type { Request, Response } from 'express';
import { pageWindow, pagination } from '../http/pagination.ts';
import type { RequestScope } from '../http/request-scope.ts';
import type { RouteTable } from '../http/route.ts';
import { openEventStream } from '../http/sse.ts';
import type { CortexDeps } from '../deps.ts';

/**
 * GET /chats/{id}/events: subscribes before answering (so a client holding the
 * response headers misses nothing published afterwards), then looks at the chat, so an answer finishing
 * in between is either seen as an event or as the idle chat's `done`. An idle chat gets its last answer
 * as `done` (an errored one its `error`) and the stream closes. A client joining a turn already under
 * way first receives the turn's events so far (a pending tool approval among them), then the live
 * ones, until `done` or `error`, or until the client leaves (the worker carries on regardless).
 */
async function streamEvents(
  platform: Platform,
  service: ChatService,
  chatId: string,
  req: Request,
  res: Response,
): Promise<void> {
  await service.require(chatId);
  const feed = new ChatEventFeed();
  // Published events go out as published: a hundred listeners do not re-serialise each one.
  const unsubscribe = await subscribeChatEvents(platform.pubsub, chatId, feed.receive);
  const stream = openEventStream(req, res);
  stream.onClose(() => {
    feed.close();
    void unsubscribe();
  });
  const send = (event: ChatEvent, json: string) => {
    stream.send(json);
    if (isFinalEvent(event)) stream.close();
  };
  const chat = await service.require(chatId);
  if (chat.status !== 'processing') {
    feed.close();
    const idle = await service.idleEvent(chat);
    return send(idle, JSON.stringify(idle));
  }
  if (await service.requestReplay(chat, feed.requestId)) feed.replay(send);
  else feed.live(send);
}

/** `/chats`: conversations over the active database's knowledge, their turns, tool approvals and exports. */
export function mountChatRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const service = (scope: RequestScope) => scope.service(chatModule);
  routes.add(api.list, async ({ query, scope }) => {
    const window = pageWindow(query, platform.settings.get().pagination);
    const { rows, total } = await (
      await service(scope)
    ).list({ scoped: query.scoped, q: query.q }, { offset: window.offset, limit: window.pageSize });
    return { data: rows, pagination: pagination(total, window) };
  });
  routes.add(api.create, async ({ body, scope }) => (await service(scope)).create(body));
  routes.add(api.deleteAll, async ({ scope }) => (await service(scope)).deleteAll());
  routes.add(api.count, async ({ scope }) => ({ count: await (await service(scope)).count() }));
  routes.add(api.starters, async ({ query, scope }) => {
    const limit = query.limit ?? 4;
    const central = await (await scope.service(searchModule)).centralNodes(limit);
    const named = await (await scope.service(graphModule)).nodeNames(central.map((node) => node.id));
    const entities = central.flatMap(({ id }) => {
      const label = named.get(id)?.label;
      return label ? [{ id, label }] : [];
    });
    return { starters: chatStarters(entities, limit) };
  });
  routes.add(api.get, async ({ params, scope }) => (await service(scope)).get(params.chat_id));
  routes.add(api.rename, async ({ params, body, scope }) => (await service(scope)).rename(params.chat_id, body.title));
  routes.add(api.setStatus, async ({ params, body, scope }) =>
    (await service(scope)).setStatus(params.chat_id, body.status),
  );
  routes.add(api.delete, async ({ params, scope }) => (await service(scope)).delete(params.chat_id));
  routes.add(api.addMessage, async ({ params, body, scope }) =>
    (await service(scope)).addMessage(params.chat_id, body),
  );
  routes.add(api.messages, async ({ params, scope }) => (await service(scope)).messages(params.chat_id));
  routes.add(api.send, async ({ params, body, scope }) => (await service(scope)).send(params.chat_id, body));
  routes.add(api.events, async ({ params, req, res, scope }) =>
    streamEvents(platform, await service(scope), params.chat_id, req, res),
  );
  routes.add(api.toolDecision, async ({ params, body, scope }) =>
    (await service(scope)).decide(params.chat_id, body.tool_call_id, body.decision),
  );
  routes.add(api.toolApprovals, async ({ params, query, scope }) =>
    (await service(scope)).toolApprovals(params.chat_id, query.status),
  );
  routes.add(api.cancel, async ({ params, scope }) => (await service(scope)).cancel(params.chat_id));
  routes.add(api.retry, async ({ params, scope }) => (await service(scope)).rerun(params.chat_id, 'retry'));
  routes.add(api.regenerate, async ({ params, scope }) => (await service(scope)).rerun(params.chat_id, 'regenerate'));
  routes.add(api.export, async ({ params, query, res, scope }) => {
    const chat = await (await service(scope)).get(params.chat_id);
    if (query.format !== 'markdown') return { data: chat };
    res.status(200).type('text/markdown; charset=utf-8').attachment(exportFilename(chat)).send(chatToMarkdown(chat));
  });
  routes.add(api.generateTitle, async ({ params, scope }) => (await service(scope)).generateTitle(params.chat_id));
  routes.add(api.setScope, async ({ params, body, scope }) => (await service(scope)).setScope(params.chat_id, body));
  routes.add(api.clearScope, async ({ params, scope }) => (await service(scope)).clearScope(params.chat_id));
}
