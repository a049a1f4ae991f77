export { SettingsStore, type PatchResult, type SettingsListener, type SettingsStoreOptions } from './store.ts';
export { maskSettings } from './mask.ts';
