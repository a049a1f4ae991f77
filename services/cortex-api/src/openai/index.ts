export { openAiErrorShape } from './error-shape.ts';
export { mountOpenAiRoutes } from './routes.ts';
