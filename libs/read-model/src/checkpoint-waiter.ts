import type { ProjectionStore } from './read-model.port';

/**
 * Read-your-writes when the projector runs in another process (docs/DESIGN.md property 1): a writer
 * waits until the read store's checkpoint reaches its events' position, polling the checkpoint
 * (every `intervalMs`, default 5 ms) for at most `timeoutMs` (default 10 s). Resolves true when
 * reached, false on time-out (the write itself is durable either way).
 */
export class CheckpointWaiter {
  private last = 0;

  constructor(
    private readonly store: ProjectionStore,
    private readonly options: { intervalMs?: number; timeoutMs?: number } = {},
  ) {}

  /** Resolves true once the checkpoint reaches `position`, false after `timeoutMs` (default: the constructor's). */
  async waitFor(position: number, timeoutMs = this.options.timeoutMs ?? 10_000): Promise<boolean> {
    if (position <= this.last) return true;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.last = Math.max(this.last, await this.store.checkpoint());
      if (position <= this.last) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, this.options.intervalMs ?? 5));
    }
  }
}
