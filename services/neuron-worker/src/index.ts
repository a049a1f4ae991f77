export { createNeuronWorker, type NeuronWorker } from './worker.ts';
