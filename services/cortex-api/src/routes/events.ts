import {
  eventEndpoints as api,
  eventTopics,
  type ChangeEventBody,
  type EventTopic,
} from '@rhizome/contracts/api/events';
import { openEventStream } from '../http/sse.ts';
import type { RouteTable } from '../http/route.ts';
import type { CortexDeps } from '../deps.ts';
import { ChangeFeed } from '../http/change-feed.ts';

const topicOf: Record<ChangeEventBody['type'], EventTopic | null> = {
  ready: null,
  database: null,
  source: 'sources',
  source_deleted: 'sources',
  task: 'tasks',
  lanes: 'tasks',
};

/** GET /events: the live source and task changes the web interface follows instead of polling. */
export function mountEventRoutes(routes: RouteTable, { platform }: CortexDeps): void {
  const feed = new ChangeFeed(platform);
  routes.add(api.stream, ({ query, req, res }) => {
    const topics = new Set<EventTopic>(query.topics ? (query.topics.split(',') as EventTopic[]) : eventTopics);
    const stream = openEventStream(req, res);
    stream.send(
      JSON.stringify({
        type: 'ready',
        database: platform.databases.currentName(),
        topics: [...topics],
      } satisfies ChangeEventBody),
    );
    const unsubscribe = feed.subscribe((event) => {
      const topic = topicOf[event.type];
      if (!topic || topics.has(topic)) stream.send(JSON.stringify(event));
    });
    stream.onClose(unsubscribe);
  });
}
