/** Messages between processes: settings reloads, chat events, cancellation flags (docs/architecture.md#processes). */
export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is active; the returned function unsubscribes. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
