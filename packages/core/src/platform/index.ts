export { createPlatform, type Platform } from './create.ts';
