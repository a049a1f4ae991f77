export { createCortexApi, type CortexDeps } from './app.ts';
export { createAuthServices } from './auth-services.ts';
