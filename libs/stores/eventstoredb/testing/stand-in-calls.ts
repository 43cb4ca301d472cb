/**
 * The streaming calls of the client stand-in (client-stand-in.ts): a read and a subscription, each a
 * readable in object mode as the client's own (`@eventstore/db-client` 6.2.1,
 * `src/streams/utils/ReadStream.ts` and `src/streams/utils/Subscription.ts`), with the one thing of
 * theirs the adapter depends on: the gRPC call under the readable is a separate thing. `destroy()`
 * of the client's readable only ends the readable (the call is piped into it, and a destroyed pipe
 * destination does not cancel its source); only `cancel()` (a read) or `unsubscribe()` (a
 * subscription) cancels the call. Each call here is counted open in its {@link OpenCalls} until the
 * server side ends it or it is cancelled, so a test can see a call left open.
 */
import { Readable } from 'node:stream';

/** The calls of a stand-in that are open (the server still serves them). */
export class OpenCalls {
  private readonly open = new Set<StandInCall>();

  /** How many calls are open. */
  get count(): number {
    return this.open.size;
  }

  add(call: StandInCall): void {
    this.open.add(call);
  }

  delete(call: StandInCall): void {
    this.open.delete(call);
  }

  /** Cancels every open call (the client's `dispose()`). */
  cancelAll(): void {
    for (const call of [...this.open]) call.cancelCall();
  }
}

/** A gRPC call of the stand-in under a readable: open until its server side ends or it is cancelled. */
export abstract class StandInCall extends Readable {
  private callOpen = true;

  constructor(private readonly calls: OpenCalls) {
    super({ objectMode: true, read: () => undefined });
    calls.add(this);
  }

  /** Whether the call is still open (not ended by the server, not cancelled). */
  get isOpen(): boolean {
    return this.callOpen;
  }

  /** Ends the call from the server's side (all sent, or an error sent). */
  protected endCall(): void {
    if (!this.callOpen) return;
    this.callOpen = false;
    this.calls.delete(this);
  }

  /** Cancels the call (what the client's `cancel()` / `unsubscribe()` do); the readable is left as it is. */
  cancelCall(): void {
    this.endCall();
  }

  /** Pushes `item` unless the readable was destroyed (the client's pipe stops writing then). */
  protected deliver(item: unknown): void {
    if (!this.destroyed) this.push(item);
  }

  /** Ends the readable with `error`, as the client's readable emits a call's error. */
  protected fail(error: Error): void {
    this.endCall();
    if (!this.destroyed) this.destroy(error);
  }
}

/**
 * A read of a stream or of `$all` (the client's `ReadStream`): `serve` runs on a later turn of the
 * event loop (the server handles the request after the client sent it) and returns the items, or
 * throws the error the server answers with, which the readable emits while it is iterated (as
 * `StreamNotFoundError` is, client `ReadStream._transform`). While `held` resolves later, the
 * server does not answer (a hung read).
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

  /** Cancels the gRPC call (client `ReadStream.cancel`: `stream.cancel()` on a later turn). */
  async cancel(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.cancelCall();
  }
}

/**
 * A catch-up subscription (the client's `Subscription`): `start` runs on a later turn, delivers the
 * events after its position and returns; live events come through {@link push}. Errors `start`
 * throws end the readable. Never ends by itself; `unsubscribe()` cancels the call.
 */
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

  /** Delivers one live or historical item while the call is open. */
  send(item: unknown): void {
    if (this.isOpen) this.deliver(item);
  }

  /** Cancels the call (client `Subscription.unsubscribe`). */
  async unsubscribe(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.cancelCall();
  }

  override cancelCall(): void {
    super.cancelCall();
    this.onClose(this);
  }
}
