export { createNeuronWorker, type NeuronWorker } from './worker.ts';
export { runWorkerProcess } from './process.ts';
