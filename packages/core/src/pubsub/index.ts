export { Broadcast } from './broadcast.ts';
export { connectPubSub, queueUrl } from './connect.ts';
