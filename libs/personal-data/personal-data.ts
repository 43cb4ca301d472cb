import type {
  EventData,
  EventStore,
  ReadAllOptions,
  ReadStreamsOptions,
  RecordedEvent,
  StreamWrite,
  Subscription,
} from '@app/event-sourcing';
import { DataKeyNotOpened, type DataKeys } from './data-keys';
import { isSealed, openFields, openFieldsWith, sealTaken, takeValues } from './sealed-fields';

/** Which streams hold personal data and, per event type, the paths of its values. */
export interface SealingPlan {
  /** One data key per id of `<streamPrefix><id>`. */
  streamPrefix: string;
  /** Empty when it holds none. */
  pathsOf(type: string): readonly string[];
}

/** The key store was lost or belongs to another log. */
export class DataKeyMissing extends Error {
  constructor(readonly id: string) {
    super(`the data key of ${id} is missing from the key store: its sealed personal values cannot be opened`);
    this.name = 'DataKeyMissing';
  }
}

export interface PersonalDataOptions {
  /** Told the plaintext of each event this process seals, so a projecting thread can {@link PersonalData.knowValues} it. Never logged. */
  onSealed?: (eventId: string, values: string) => void;
  /** Default 4,096; the oldest forgotten first. */
  knownMax?: number;
}

/**
 * Seals the plan's values on append with the stream id's data key and opens them on read, `[erased]` once the key is destroyed
 * (docs/DESIGN.md "Personal data"). `sealOnAppend` false is for the bench only (production refuses it).
 */
export class PersonalData {
  private readonly known = new Map<string, string>();
  private readonly onSealed: ((eventId: string, values: string) => void) | null;
  private readonly knownMax: number;

  constructor(
    readonly keys: DataKeys,
    private readonly plan: SealingPlan,
    private readonly sealOnAppend = true,
    options: PersonalDataOptions = {},
  ) {
    this.onSealed = options.onSealed ?? null;
    this.knownMax = options.knownMax ?? 4096;
  }

  /**
   * Values another thread of this process sealed: only the live subscription's {@link open} takes them, once; any other read opens with
   * the data key as it is then.
   */
  knowValues(eventId: string, values: string): void {
    this.known.set(eventId, values);
    if (this.known.size > this.knownMax) this.known.delete(this.known.keys().next().value!);
  }

  /** Each box bound to its event. Throws `DataKeyDestroyed` for an erased id. */
  async seal<E extends EventData>(streamId: string, events: E[]): Promise<E[]> {
    if (!this.sealOnAppend || !streamId.startsWith(this.plan.streamPrefix)) return events;
    let key: Buffer | null = null;
    const sealed: E[] = [];
    for (const e of events) {
      const paths = this.plan.pathsOf(e.type);
      // An event sealed already (an import) keeps its box; one without personal values needs no key read.
      const taken = paths.length === 0 || !isObject(e.data) || isSealed(e.data) ? null : takeValues(e.data, paths);
      if (taken === null) {
        sealed.push(e);
        continue;
      }
      key ??= await this.keys.keyFor(streamId.slice(this.plan.streamPrefix.length));
      const told = this.onSealed;
      sealed.push({
        ...e,
        data: sealTaken(taken, key, { streamId, eventId: e.id, type: e.type }, told ? (values) => told(e.id, values) : undefined),
      });
    }
    return sealed;
  }

  /**
   * The data keys an export carries and an import stores (docs/operations.md "Export, import and moving to EventStoreDB"): wrapped,
   * null once erased; an import refuses a key of another service key. `otherStreams`: the id of a stream another plan seals, else null.
   */
  dataKeyTransfer(
    now: () => Date = () => new Date(),
    otherStreams: (streamId: string) => string | null = () => null,
  ): {
    exported(streamId: string): Promise<{ wrapped: string | null } | null>;
    imported(streamId: string, wrapped: string | null): Promise<string | null>;
  } {
    const idOf = (streamId: string): string | null =>
      streamId.startsWith(this.plan.streamPrefix) ? streamId.slice(this.plan.streamPrefix.length) : otherStreams(streamId);
    return {
      exported: async (streamId) => {
        const id = idOf(streamId);
        const wrapped = id === null ? null : await this.keys.wrappedKey(id);
        if (wrapped === null) return null;
        return { wrapped: wrapped === 'erased' ? null : wrapped.toString('base64') };
      },
      imported: async (streamId, wrapped) => {
        const id = idOf(streamId);
        if (id === null) return `${streamId} is not a stream of personal data and has no data key`;
        if (wrapped === null) {
          await this.keys.destroy(id, now());
          return null;
        }
        try {
          await this.keys.adopt(id, Buffer.from(wrapped, 'base64'));
          return null;
        } catch (err) {
          if (err instanceof DataKeyNotOpened)
            return `the data key of ${streamId} was wrapped under another service key: import with the DATA_KEY_FILE of the exporting service`;
          throw err;
        }
      },
    };
  }

  /**
   * With `live`, an event whose values were told ({@link knowValues}) takes them. The keys of the others' trainees are read together
   * (`DataKeys.existingKeys`), once per trainee. Throws {@link DataKeyMissing}.
   */
  async open<E extends RecordedEvent>(events: E[], live = false): Promise<E[]> {
    let opened: E[] | null = null;
    /** Sealed events left to open with their trainee's key. */
    const keyed: number[] = [];
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      if (!isSealed(e.data) || !e.streamId.startsWith(this.plan.streamPrefix)) continue;
      opened ??= events.slice();
      const told = live ? this.known.get(e.id) : undefined;
      if (told === undefined) keyed.push(i);
      else {
        this.known.delete(e.id);
        opened[i] = { ...e, data: openFieldsWith(e.data, JSON.parse(told) as unknown[]) };
      }
    }
    if (keyed.length === 0) return opened ?? events;
    const idOf = (e: E) => e.streamId.slice(this.plan.streamPrefix.length);
    const keys = await this.keys.existingKeys(keyed.map((i) => idOf(events[i])));
    for (const i of keyed) {
      const e = events[i];
      const key = keys.get(idOf(e));
      if (!key) throw new DataKeyMissing(idOf(e));
      opened![i] = {
        ...e,
        data: openFields(e.data as Record<string, unknown>, key, { streamId: e.streamId, eventId: e.id, type: e.type }),
      };
    }
    return opened!;
  }
}

/**
 * The event store as a proxy sealing on append and opening on read; other methods and `instanceof` stay the store's own, which stays
 * the log as stored (docs/DESIGN.md "Personal data").
 */
export function withPersonalData(store: EventStore, personal: PersonalData): EventStore {
  const overrides: Partial<Record<keyof EventStore, unknown>> = {
    appendToStream: async (streamId: string, events: EventData[], options?: Parameters<EventStore['appendToStream']>[2]) =>
      store.appendToStream(streamId, await personal.seal(streamId, events), options),
    appendToStreams: store.appendToStreams
      ? async (writes: StreamWrite[]) =>
          store.appendToStreams!(await Promise.all(writes.map(async (w) => ({ ...w, events: await personal.seal(w.streamId, w.events) }))))
      : undefined,
    readStream: async (streamId: string, options?: Parameters<EventStore['readStream']>[1]) =>
      personal.open(await store.readStream(streamId, options)),
    readAll: async (options?: ReadAllOptions) => personal.open(await store.readAll(options)),
    readStreamsByPrefix: store.readStreamsByPrefix
      ? async (options: ReadStreamsOptions) => personal.open(await store.readStreamsByPrefix!(options))
      : undefined,
    subscribeToAll: (options?: Parameters<EventStore['subscribeToAll']>[0]) => openedSubscription(store.subscribeToAll(options), personal),
  };
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (Object.prototype.hasOwnProperty.call(overrides, property)) return overrides[property as keyof typeof overrides];
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!bound.has(property)) bound.set(property, (value as (...args: unknown[]) => unknown).bind(target));
      return bound.get(property);
    },
  });
}

function openedSubscription(sub: Subscription, personal: PersonalData): Subscription {
  return {
    unsubscribe: () => sub.unsubscribe(),
    async *[Symbol.asyncIterator]() {
      for await (const e of sub) yield (await personal.open([e], true))[0];
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
