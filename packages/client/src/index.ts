export { RhizomeClient, type CallInput, type ClientOptions, type Location } from './client.ts';
export { RequestError, requestErrorOf } from './errors.ts';
export { readEventStream } from './sse.ts';
