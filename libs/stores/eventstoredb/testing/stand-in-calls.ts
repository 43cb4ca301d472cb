/**
 * The stand-in's streaming calls, object-mode readables as the client's (6.2.1 `src/streams/utils/ReadStream.ts`, `Subscription.ts`)
 * with the gRPC call apart: `destroy()` ends only the readable, as a destroyed pipe destination leaves its source open; `cancel()` or
 * `unsubscribe()` cancels the call. Each call counts open in {@link OpenCalls} until ended or cancelled, so a test sees one left open.
 */
import { Readable } from 'node:stream';

export class OpenCalls {
  private readonly open = new Set<StandInCall>();

  get count(): number {
    return this.open.size;
  }

  add(call: StandInCall): void {
    this.open.add(call);
  }

  delete(call: StandInCall): void {
    this.open.delete(call);
  }

  /** The client's `dispose()`. */
  cancelAll(): void {
    for (const call of [...this.open]) call.cancelCall();
  }
}

/** Open until its server side ends or it is cancelled. */
export abstract class StandInCall extends Readable {
  private callOpen = true;

  constructor(private readonly calls: OpenCalls) {
    super({ objectMode: true, read: () => undefined });
    calls.add(this);
  }

  get isOpen(): boolean {
    return this.callOpen;
  }

  /** From the server's side: all sent, or an error sent. */
  protected endCall(): void {
    if (!this.callOpen) return;
    this.callOpen = false;
    this.calls.delete(this);
  }

  /** The client's `cancel()` or `unsubscribe()`; the readable is left as it is. */
  cancelCall(): void {
    this.endCall();
  }

  /** Unless the readable was destroyed: the client's pipe stops writing then. */
  protected deliver(item: unknown): void {
    if (!this.destroyed) this.push(item);
  }

  protected fail(error: Error): void {
    this.endCall();
    if (!this.destroyed) this.destroy(error);
  }
}

/**
 * The client's `ReadStream`: `serve` runs on a later turn and returns the items, or throws what the readable emits while iterated (as
 * `StreamNotFoundError` is, `ReadStream._transform`). Unanswered while `held` is pending (a hung read).
 */
export class StandInRead extends StandInCall {
  constructor(calls: OpenCalls, held: Promise<void>, serve: () => unknown[]) {
    super(calls);
    setImmediate(() => {
      void held.then(() => {
        if (!this.isOpen) return;
        let items: unknown[];
        try {
          items = serve();
        } catch (error) {
          this.fail(error as Error);
          return;
        }
        for (const item of items) this.deliver(item);
        this.endCall();
        this.deliver(null);
      });
    });
  }

  /** As `ReadStream.cancel`: `stream.cancel()` on a later turn. */
  async cancel(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.cancelCall();
  }
}

/** The client's `Subscription`: `start` runs on a later turn; live events through {@link send}; never ends by itself. */
export class StandInSubscription extends StandInCall {
  constructor(
    calls: OpenCalls,
    start: (subscription: StandInSubscription) => void,
    private readonly onClose: (subscription: StandInSubscription) => void,
  ) {
    super(calls);
    setImmediate(() => {
      if (!this.isOpen) return;
      try {
        start(this);
      } catch (error) {
        this.fail(error as Error);
        this.onClose(this);
      }
    });
  }

  send(item: unknown): void {
    if (this.isOpen) this.deliver(item);
  }

  async unsubscribe(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.cancelCall();
  }

  /** From the server's side: the call ends with `error`, which the readable emits. */
  failCall(error: Error): void {
    if (!this.isOpen) return;
    this.fail(error);
    this.onClose(this);
  }

  override cancelCall(): void {
    super.cancelCall();
    this.onClose(this);
  }
}
