import { runWorkerProcess } from './process.ts';

await runWorkerProcess();
