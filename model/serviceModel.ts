/**
 * The fake service's reference semantics, as a small executable model.
 *
 * - POST(key, digest): the first commits one effect (201); the same key and digest again replays
 *   (200, no effect); another digest answers 409. A 500-before-commit fault commits nothing.
 * - GET(key): 200 with the stored digest, or 404 (also while an accepted commit is pending).
 * - restart(): volatile memory forgets every key; durable memory keeps them. Effects are never
 *   forgotten, so a replay after a volatile restart is a second effect.
 * - 'none': no idempotency keys at all. Every POST commits a new effect (never 200-replay, never
 *   409); GET answers the latest committed effect under the key.
 */
export type Memory = 'durable' | 'volatile' | 'none';

export interface ModelEffect {
  key: string;
  digest: string;
}

export class ServiceModel {
  readonly effects: ModelEffect[] = [];
  private readonly memory = new Map<string, { digest: string; pending: boolean }>();
  private readonly accepted: ModelEffect[] = [];

  constructor(private readonly mode: Memory) {}

  post(key: string, digest: string, options: { commit: 'now' | 'later' | 'never' } = { commit: 'now' }): number {
    if (options.commit === 'never') return 500;
    const stored = this.mode === 'none' ? undefined : this.memory.get(key);
    if (stored && stored.digest !== digest) return 409;
    if (stored?.pending) return 202;
    if (stored) return 200;
    if (options.commit === 'later') {
      if (this.mode !== 'none' || this.memory.get(key)?.pending !== false) this.memory.set(key, { digest, pending: true });
      this.accepted.push({ key, digest });
      return 202;
    }
    this.commit(key, digest);
    return 201;
  }

  /** A pending (accepted) commit lands. */
  land(key: string, digest: string): void {
    this.commit(key, digest);
  }

  /** Every accepted commit lands, in the order accepted (they survive a restart: they are queued work). */
  landAll(): number {
    const landing = this.accepted.splice(0);
    for (const { key, digest } of landing) this.commit(key, digest);
    return landing.length;
  }

  get(key: string): { status: 200; digest: string } | { status: 404 } {
    const stored = this.memory.get(key);
    return stored && !stored.pending ? { status: 200, digest: stored.digest } : { status: 404 };
  }

  restart(): void {
    if (this.mode === 'volatile') this.memory.clear();
  }

  effectsFor(key: string): number {
    return this.effects.filter((e) => e.key === key).length;
  }

  private commit(key: string, digest: string): void {
    this.effects.push({ key, digest });
    this.memory.set(key, { digest, pending: false });
  }
}
