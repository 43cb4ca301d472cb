import { createCipheriv, createDecipheriv, randomUUID } from 'node:crypto';
import { randomView } from '@app/event-sourcing';
import { unpackVersionedKeys, type LiveKeys, type VersionedKeys } from '@app/keys';
import type { DataKeyStore } from './data-key-store.port';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** `v`: the first byte of a versioned wrapped key, before its 4-byte big-endian key version. */
const VERSIONED = 0x76;
const HEADER_BYTES = 5;
/** A wrapped key from before versions (IV, key, tag): version 1. */
const UNVERSIONED_BYTES = IV_BYTES + KEY_BYTES + TAG_BYTES;

export interface DataKeysOptions {
  /**
   * Ms an opened key stays in memory (default 5 min), not extended by use. Erasures elsewhere reach it sooner: `erasedSince` is asked
   * before a kept key is used.
   */
  cacheMs?: number;
  /** Default 100,000 (about 25 MB); the oldest go first. */
  cacheSize?: number;
  /** Keys made and stored in one write for trainees still to be registered (default 256). */
  poolSize?: number;
  now?: () => number;
  newId?: () => string;
  /** Told of each key opened or made here, so another thread opening the same trainees' events can {@link DataKeys.learn} it. */
  onOpened?: (traineeId: string, key: Buffer) => void;
  /**
   * The keyring's live key-encryption keys: read again for a version not held, and under its shared lock before any key is wrapped and
   * stored, so no retirement counts before the key is stored (docs/operations.md "Rotating the service key"). Without it, the keys given.
   */
  keyring?: LiveKeys;
}

export class DataKeyDestroyed extends Error {
  constructor(readonly traineeId: string) {
    super(`trainee ${traineeId} was erased: its personal data can no longer be read or written`);
    this.name = 'DataKeyDestroyed';
  }
}

/** Wrapped under another key-encryption key, or altered. */
export class DataKeyNotOpened extends Error {
  constructor(readonly traineeId: string) {
    super(`the data key of trainee ${traineeId} does not open with this key-encryption key (another service key?)`);
    this.name = 'DataKeyNotOpened';
  }
}

/** The key-encryption version of `wrapped` (`v`, version, IV, key, tag: 65 bytes; 60 bytes: version 1); null for another shape. */
export function wrappedKeyVersion(wrapped: Buffer): number | null {
  if (wrapped.length === UNVERSIONED_BYTES) return 1;
  if (wrapped.length === HEADER_BYTES + UNVERSIONED_BYTES && wrapped[0] === VERSIONED) return wrapped.readUInt32BE(1);
  return null;
}

/**
 * The trainees' data keys (crypto-shredding, docs/DESIGN.md "Personal data"): a random AES-256 key per trainee, stored wrapped with
 * AES-256-GCM under the current version's key-encryption key, authenticated with the version and trainee id. `kek`: packed versioned
 * keys, or one 32-byte key (version 1).
 */
export class DataKeys {
  /** Oldest first, with the time (ms) each stops being trusted. */
  private readonly cache = new Map<string, { key: Buffer | 'erased'; until: number }>();
  /** Ids of trainees still to be registered whose keys are stored. */
  private readonly pool: string[] = [];
  private refill: Promise<void> | null = null;
  private readonly options: Required<Omit<DataKeysOptions, 'onOpened' | 'keyring'>>;
  private readonly onOpened: ((traineeId: string, key: Buffer) => void) | null;
  private readonly keyring: LiveKeys | null;
  private kek: Buffer;
  private keks: VersionedKeys;
  private erasureMark: number | null = null;

  constructor(
    private readonly store: DataKeyStore,
    kek: Buffer,
    options: DataKeysOptions = {},
  ) {
    this.kek = kek;
    this.keks = unpackVersionedKeys(kek);
    this.keyring = options.keyring ?? null;
    this.options = {
      cacheMs: options.cacheMs ?? 5 * 60_000,
      cacheSize: options.cacheSize ?? 100_000,
      poolSize: options.poolSize ?? 256,
      now: options.now ?? Date.now,
      newId: options.newId ?? randomUUID,
    };
    this.onOpened = options.onOpened ?? null;
  }

  /** For a thread of this process opening keys of the same store; never logged or sent out. */
  get keyEncryptionKey(): Buffer {
    return this.kek;
  }

  /** As last read; with a keyring, read again before each wrap. */
  get currentVersion(): number {
    return this.keks.current;
  }

  /** Null when already under the current version; {@link DataKeyNotOpened} when no version held opens it. */
  rewrapped(traineeId: string, wrapped: Buffer): Buffer | null {
    if (wrappedKeyVersion(wrapped) === this.keks.current) return null;
    return this.wrap(traineeId, this.unwrap(traineeId, wrapped));
  }

  /**
   * An id whose data key is already stored, so a create waits on no key write; the pool refills at half. An id never registered leaves
   * a key that names no one. A failed refill is retried by the next call and thrown to calls that find the pool empty.
   */
  async newTraineeId(): Promise<string> {
    while (this.pool.length === 0) await this.refilled();
    const id = this.pool.shift()!;
    if (this.pool.length < this.options.poolSize / 2) this.refilled().catch(() => undefined);
    return id;
  }

  private refilled(): Promise<void> {
    return (this.refill ??= this.reserve().finally(() => (this.refill = null)));
  }

  /** Made and stored when none; kept for {@link DataKeysOptions.cacheMs}. Throws {@link DataKeyDestroyed}, {@link DataKeyNotOpened}. */
  async keyFor(traineeId: string): Promise<Buffer> {
    await this.forgetErasedElsewhere();
    const cached = this.cached(traineeId);
    if (cached instanceof Buffer) return cached;
    let key = cached ?? (await this.readStored(traineeId));
    key ??= await this.made(traineeId);
    if (key === 'erased') throw new DataKeyDestroyed(traineeId);
    return key;
  }

  /** Another key stored first is the one kept. */
  private async made(traineeId: string): Promise<Buffer | 'erased'> {
    const key = Buffer.from(randomView(KEY_BYTES));
    const stored = await this.wrapping(() => this.store.ensure(traineeId, this.wrap(traineeId, key)));
    return this.remember(traineeId, this.openStored(stored, traineeId));
  }

  /** Null when none was made, `erased` when destroyed. Throws {@link DataKeyNotOpened}. */
  async existingKey(traineeId: string): Promise<Buffer | null | 'erased'> {
    await this.forgetErasedElsewhere();
    return this.cached(traineeId) ?? this.readStored(traineeId);
  }

  /** {@link existingKey} of each id, asking the store for erasures elsewhere once for them all: a batch's keys as of its start. */
  async existingKeys(traineeIds: Iterable<string>): Promise<Map<string, Buffer | null | 'erased'>> {
    await this.forgetErasedElsewhere();
    const keys = new Map<string, Buffer | null | 'erased'>();
    for (const id of traineeIds) if (!keys.has(id)) keys.set(id, this.cached(id) ?? (await this.readStored(id)));
    return keys;
  }

  private async forgetErasedElsewhere(): Promise<void> {
    const { mark, traineeIds } = await this.store.erasedSince(this.erasureMark);
    this.erasureMark = mark;
    for (const id of traineeIds) this.cache.delete(id);
  }

  private async readStored(traineeId: string): Promise<Buffer | null | 'erased'> {
    const wrapped = await this.store.get(traineeId);
    return wrapped === null ? null : this.remember(traineeId, this.openStored(wrapped, traineeId));
  }

  /** As stored, for an export: it never leaves in the clear. */
  wrappedKey(traineeId: string): Promise<Buffer | null | 'erased'> {
    return this.store.get(traineeId);
  }

  /** Stores an exported wrapped key once it opens here ({@link DataKeyNotOpened} otherwise); a held or erased key stays as it is. */
  async adopt(traineeId: string, wrapped: Buffer): Promise<void> {
    await this.wrapping(async () => {
      this.unwrap(traineeId, wrapped);
      await this.store.ensure(traineeId, wrapped);
    });
  }

  /** Keeps a key another thread of this process opened from the same store, as if read here. */
  learn(traineeId: string, key: Buffer): void {
    if (key.length !== KEY_BYTES) throw new Error('a data key is 32 bytes');
    this.keep(traineeId, key);
  }

  async destroy(traineeId: string, at: Date): Promise<boolean> {
    this.cache.delete(traineeId);
    const destroyed = await this.store.destroy(traineeId, at);
    this.cache.delete(traineeId);
    return destroyed;
  }

  /**
   * Wraps every stored key again under the current version while the service writes (docs/operations.md "Rotating the service key");
   * a key erased or rewrapped meanwhile is left as it is (`replace`). The data keys themselves do not change.
   * Throws {@link DataKeyNotOpened} for a key no version held opens.
   */
  async rewrapAll(batch = 500): Promise<{ rewrapped: number; current: number; changed: number; before: Map<number, number> }> {
    const counts = { rewrapped: 0, current: 0, changed: 0, before: new Map<number, number>() };
    for (let after: string | null = null; ;) {
      const rows = await this.store.wrappedAfter(after, batch);
      if (rows.length === 0) return counts;
      await this.wrapping(async () => {
        for (const { traineeId, wrapped } of rows) {
          const version = wrappedKeyVersion(wrapped) ?? 0;
          counts.before.set(version, (counts.before.get(version) ?? 0) + 1);
          const next = this.rewrapped(traineeId, wrapped);
          if (next === null) counts.current++;
          else if (await this.store.replace(traineeId, wrapped, next)) counts.rewrapped++;
          else counts.changed++;
        }
      });
      after = rows[rows.length - 1].traineeId;
    }
  }

  /** 0: a key of no known shape. */
  async versionCounts(batch = 1000): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    for (let after: string | null = null; ;) {
      const rows = await this.store.wrappedAfter(after, batch);
      if (rows.length === 0) return counts;
      for (const { wrapped } of rows) {
        const version = wrappedKeyVersion(wrapped) ?? 0;
        counts.set(version, (counts.get(version) ?? 0) + 1);
      }
      after = rows[rows.length - 1].traineeId;
    }
  }

  private reload(): void {
    if (!this.keyring) return;
    try {
      this.take(this.keyring.now());
    } catch {
      // Unreadable for a moment: the keys held still open what they wrapped.
    }
  }

  private take(kek: Buffer): void {
    this.keks = unpackVersionedKeys(kek);
    this.kek = kek;
  }

  /**
   * Runs `store` with the keyring's keys under its shared lock; `KeyringError` when unreadable, so nothing is wrapped under a version
   * retired meanwhile.
   */
  private wrapping<T>(store: () => Promise<T>): Promise<T> {
    if (!this.keyring) return store();
    return this.keyring.holding((kek) => {
      this.take(kek);
      return store();
    });
  }

  private async reserve(): Promise<void> {
    const keys = Array.from({ length: this.options.poolSize }, () => ({
      traineeId: this.options.newId(),
      key: Buffer.from(randomView(KEY_BYTES)),
    }));
    await this.wrapping(() => this.store.reserve(keys.map((k) => ({ traineeId: k.traineeId, wrapped: this.wrap(k.traineeId, k.key) }))));
    for (const k of keys) {
      this.remember(k.traineeId, k.key);
      this.pool.push(k.traineeId);
    }
  }

  private openStored(wrapped: Buffer | 'erased', traineeId: string): Buffer | 'erased' {
    return wrapped === 'erased' ? 'erased' : this.unwrap(traineeId, wrapped);
  }

  private cached(traineeId: string): Buffer | 'erased' | undefined {
    const entry = this.cache.get(traineeId);
    if (!entry) return undefined;
    if (entry.until > this.options.now()) return entry.key;
    this.cache.delete(traineeId);
    return undefined;
  }

  private remember(traineeId: string, key: Buffer | 'erased'): Buffer | 'erased' {
    this.keep(traineeId, key);
    if (key !== 'erased') this.onOpened?.(traineeId, key);
    return key;
  }

  private keep(traineeId: string, key: Buffer | 'erased'): void {
    this.cache.delete(traineeId);
    this.cache.set(traineeId, { key, until: this.options.now() + this.options.cacheMs });
    if (this.cache.size > this.options.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }

  private wrap(traineeId: string, key: Buffer): Buffer {
    const header = Buffer.alloc(HEADER_BYTES);
    header[0] = VERSIONED;
    header.writeUInt32BE(this.keks.current, 1);
    const iv = randomView(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keks.keys.get(this.keks.current)!, iv);
    cipher.setAAD(Buffer.concat([header, Buffer.from(traineeId)]));
    return Buffer.concat([header, iv, cipher.update(key), cipher.final(), cipher.getAuthTag()]);
  }

  private unwrap(traineeId: string, wrapped: Buffer): Buffer {
    const version = wrappedKeyVersion(wrapped);
    if (version !== null && !this.keks.keys.has(version)) this.reload();
    const kek = version === null ? undefined : this.keks.keys.get(version);
    if (kek === undefined) throw new DataKeyNotOpened(traineeId);
    const header = wrapped.subarray(0, wrapped.length - UNVERSIONED_BYTES);
    const box = wrapped.subarray(header.length);
    try {
      const decipher = createDecipheriv('aes-256-gcm', kek, box.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.concat([header, Buffer.from(traineeId)])).setAuthTag(box.subarray(IV_BYTES + KEY_BYTES));
      return Buffer.concat([decipher.update(box.subarray(IV_BYTES, IV_BYTES + KEY_BYTES)), decipher.final()]);
    } catch {
      throw new DataKeyNotOpened(traineeId);
    }
  }
}
