export { lockDataDir } from './data-dir-lock.ts';
export { FileLock } from './file-lock.ts';
export {
  closeServer,
  listen,
  listenFailure,
  listenOptionsFromEnv,
  stopOnSignals,
  type ListenOptions,
} from './listen.ts';
