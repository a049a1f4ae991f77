export { SettingsStore } from './store.ts';
