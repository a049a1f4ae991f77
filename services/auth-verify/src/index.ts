export { createAuthVerify } from './app.ts';
