export { ServerSettings, SettingsFile, type SettingsDocument } from './documents.ts';
export { SettingsStore } from './store.ts';
