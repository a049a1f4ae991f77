// Worker threads do not inherit the TypeScript loader of the process that starts them: register it here.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
