import type { LocalLlmInstance, Settings } from '@rhizome/contracts/settings';
import { LlmError } from '../llm/errors.ts';
import { OllamaClient } from './client.ts';
import { describeError } from '@rhizome/contracts/errors';

export type LoadBalancing = Settings['llm']['localllm_load_balancing'];

/** An enabled instance as the pool hands it out. */
export interface LocalInstance {
  id: string;
  name: string;
  base_url: string;
}

/** One configured instance after a probe; disabled instances are listed but not probed. */
export interface InstanceProbe extends LocalInstance {
  enabled: boolean;
  healthy: boolean;
  version: string | null;
  models: string[] | null;
  latency_ms: number | null;
  error: string | null;
}

export interface HealthChange {
  id: string;
  base_url: string;
  healthy: boolean;
  error: string | null;
}

export interface LocalLlmPoolOptions {
  /** `llm.localllm_instances`; only enabled ones take calls. */
  instances: LocalLlmInstance[];
  strategy: LoadBalancing;
  /** Least time between two probes of an unhealthy instance. */
  recheckMs?: number;
  /** Time limit of one probe. */
  probeTimeoutMs?: number;
}

interface Slot {
  instance: LocalInstance;
  client: OllamaClient;
  healthy: boolean;
  inFlight: number;
  lastCheck: number;
  probing: boolean;
  error: string | null;
  /** Whether a probe or call has shown this instance's health yet (the first observation is reported). */
  observed: boolean;
}

/**
 * The enabled local model servers and which of them to use next. Instances start healthy (the first
 * call finds out); one that fails without an HTTP answer or times out is set aside and re-probed
 * lazily, from `pick`, at most every `recheckMs`, so the pool owns no timer.
 */
export class LocalLlmPool {
  private configured: LocalLlmInstance[] = [];
  private slots: Slot[] = [];
  private strategy: LoadBalancing = 'round_robin';
  private cursor = 0;
  private readonly listeners = new Set<(change: HealthChange) => void>();
  private readonly recheckMs: number;
  private readonly probeTimeoutMs: number;

  constructor(options: LocalLlmPoolOptions) {
    this.recheckMs = options.recheckMs ?? 5000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 3000;
    this.update(options.instances, options.strategy);
  }

  /** Applies changed settings; an instance whose id and base_url stay the same keeps its health and load. */
  update(instances: LocalLlmInstance[], strategy: LoadBalancing): void {
    const previous = new Map(this.slots.map((slot) => [`${slot.instance.id} ${slot.instance.base_url}`, slot]));
    this.configured = instances.map((instance) => ({ ...instance }));
    this.slots = instances
      .filter((instance) => instance.enabled)
      .map(({ id, name, base_url }) => {
        const kept = previous.get(`${id} ${base_url}`);
        if (kept) {
          kept.instance = { id, name, base_url };
          return kept;
        }
        return {
          instance: { id, name, base_url },
          client: new OllamaClient(base_url),
          healthy: true,
          inFlight: 0,
          lastCheck: 0,
          probing: false,
          error: null,
          observed: false,
        };
      });
    this.strategy = strategy;
    this.cursor = 0;
  }

  /** Enabled instances; the llm lane runs this many calls at once. */
  get size(): number {
    return this.slots.length;
  }

  /** The instance for the next call: `preferredId` when it is enabled and healthy, else by the strategy. */
  pick(preferredId?: string): LocalInstance {
    this.recheckDue();
    const healthy = this.slots.filter((slot) => slot.healthy);
    const preferred = preferredId === undefined ? undefined : healthy.find((slot) => slot.instance.id === preferredId);
    if (preferred) return preferred.instance;
    if (!healthy.length) {
      const detail = this.slots.length
        ? this.slots.map((slot) => `${slot.instance.name || slot.instance.id}: ${slot.error ?? 'unhealthy'}`).join('; ')
        : 'none is enabled';
      throw new LlmError('unavailable', `no healthy local model server (${detail})`);
    }
    switch (this.strategy) {
      case 'first_healthy':
        return healthy[0].instance;
      case 'least_busy':
        return healthy.reduce((best, slot) => (slot.inFlight < best.inFlight ? slot : best)).instance;
      case 'round_robin': {
        const slot = [...this.slots.slice(this.cursor), ...this.slots.slice(0, this.cursor)].find(
          (candidate) => candidate.healthy,
        )!;
        this.cursor = (this.slots.indexOf(slot) + 1) % this.slots.length;
        return slot.instance;
      }
    }
  }

  /** Counts a call in flight on an instance until the returned function is called. */
  track(instanceId: string): () => void {
    const slot = this.slots.find((candidate) => candidate.instance.id === instanceId);
    if (!slot) return () => {};
    slot.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      slot.inFlight -= 1;
    };
  }

  /**
   * Sets an instance aside after a call failed for lack of a server: no HTTP answer, or a time limit.
   * An HTTP error proves the server is up (Ollama answers 503 when its queue is full), so it does not count.
   */
  reportFailure(instanceId: string, error: LlmError): void {
    const serverGone = error.kind === 'timeout' || (error.kind === 'unavailable' && error.status === null);
    const slot = this.slots.find((candidate) => candidate.instance.id === instanceId);
    if (!slot || !serverGone) return;
    slot.lastCheck = Date.now();
    this.setHealth(slot, false, error.message);
  }

  /** Probes every enabled instance now: version (health and latency) and installed models. */
  async probeAll(signal: AbortSignal): Promise<InstanceProbe[]> {
    return Promise.all(
      this.configured.map(async (instance): Promise<InstanceProbe> => {
        const base = { id: instance.id, name: instance.name, base_url: instance.base_url, enabled: instance.enabled };
        const slot = this.slots.find((candidate) => candidate.instance.id === instance.id);
        if (!slot) return { ...base, healthy: false, version: null, models: null, latency_ms: null, error: null };
        const limit = AbortSignal.any([signal, AbortSignal.timeout(this.probeTimeoutMs)]);
        const started = performance.now();
        const [version, tags] = await Promise.allSettled([
          slot.client.version(limit).then((value) => ({ value, latency: Math.round(performance.now() - started) })),
          slot.client.tags(limit),
        ]);
        const error =
          version.status === 'rejected'
            ? messageOf(version.reason)
            : tags.status === 'rejected'
              ? messageOf(tags.reason)
              : null;
        // A probe cut short by the caller says nothing about the server.
        if (!signal.aborted) {
          slot.lastCheck = Date.now();
          this.setHealth(slot, version.status === 'fulfilled', error);
        }
        return {
          ...base,
          healthy: version.status === 'fulfilled',
          version: version.status === 'fulfilled' ? version.value.value : null,
          models: tags.status === 'fulfilled' ? tags.value.map((model) => model.name) : null,
          latency_ms: version.status === 'fulfilled' ? version.value.latency : null,
          error,
        };
      }),
    );
  }

  /** Calls `listener` on the first observed health of an instance and on every change; returns the unsubscribe function. */
  onHealthChange(listener: (change: HealthChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private recheckDue(): void {
    const now = Date.now();
    for (const slot of this.slots) {
      if (slot.healthy || slot.probing || now - slot.lastCheck < this.recheckMs) continue;
      slot.probing = true;
      slot.client
        .version(AbortSignal.timeout(this.probeTimeoutMs))
        .then(
          () => this.setHealth(slot, true, null),
          (error: unknown) => {
            slot.error = messageOf(error);
          },
        )
        .finally(() => {
          slot.lastCheck = Date.now();
          slot.probing = false;
        });
    }
  }

  private setHealth(slot: Slot, healthy: boolean, error: string | null): void {
    const changed = slot.healthy !== healthy || !slot.observed;
    slot.observed = true;
    slot.healthy = healthy;
    slot.error = error;
    if (!changed) return;
    const change = { id: slot.instance.id, base_url: slot.instance.base_url, healthy, error };
    for (const listener of this.listeners) listener(change);
  }
}

function messageOf(error: unknown): string {
  return describeError(error);
}
