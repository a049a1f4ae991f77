export { serveThread } from './answer-requests.ts';
export { ThreadClient } from './client.ts';
export { collectGarbage } from './garbage.ts';
