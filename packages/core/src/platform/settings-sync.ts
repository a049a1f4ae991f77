import type { PubSub } from '@rhizome/queue';
import type { SettingsStore } from '../settings/index.ts';

export const settingsChangedChannel = 'rhizome:settings:changed';

/**
 * The one subscription point for hot reload: a process that changed the settings file announces it,
 * every other process re-reads the file (and its onChange listeners react).
 */
export class SettingsSync {
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly store: SettingsStore,
    private readonly pubsub: PubSub,
    private readonly origin: string,
    private readonly onReload: () => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.pubsub.subscribe(settingsChangedChannel, (message) => {
      const { origin } = JSON.parse(message) as { origin: string };
      if (origin === this.origin) return;
      this.store.reload();
      this.onReload();
    });
  }

  announce(): Promise<void> {
    return this.pubsub.publish(settingsChangedChannel, JSON.stringify({ origin: this.origin, at: Date.now() }));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }
}
