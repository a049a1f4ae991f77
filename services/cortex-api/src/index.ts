export { createCortexApi, type CortexDeps } from './app.ts';
export { createAuthServices } from './auth-services.ts';
export { serveTlsOnSamePort, tlsStoreOf } from './tls/index.ts';
