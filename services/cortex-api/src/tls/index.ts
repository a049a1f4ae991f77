import type { Platform } from '@rhizome/core/platform';
import { TlsStore, tlsStoreIn } from './store.ts';

export { serveTlsOnSamePort } from './same-port.ts';
export { selfSignedCredentials } from './self-signed.ts';
export type { TlsStatus } from './store.ts';
export { TlsStore };

const stores = new WeakMap<Platform, TlsStore>();

/** The platform's one TLS store (`<data dir>/tls/`), shared by the routes, the listener and the session cookie. */
export function tlsStoreOf(platform: Platform): TlsStore {
  let store = stores.get(platform);
  if (!store) {
    store = tlsStoreIn(platform.paths.root);
    stores.set(platform, store);
  }
  return store;
}
