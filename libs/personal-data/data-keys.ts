import { createCipheriv, createDecipheriv, randomUUID } from 'node:crypto';
import { randomView } from '@app/event-sourcing';
import { unpackVersionedKeys, type LiveKeys, type VersionedKeys } from '@app/keys';
import type { DataKeyStore } from './data-key-store.port';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The first byte of a versioned wrapped key (`v`), before its 4-byte big-endian key version. */
const VERSIONED = 0x76;
const HEADER_BYTES = 5;
/** A wrapped key from before versions: IV, wrapped key and tag, under version 1, the trainee id as associated data. */
const UNVERSIONED_BYTES = IV_BYTES + KEY_BYTES + TAG_BYTES;

/** How the keys are kept in memory and drawn for new trainees; every field has a default. */
export interface DataKeysOptions {
  /**
   * How long an opened key stays in memory after it was read from the store (or made, or learnt
   * from another thread that read it), in ms (default 5 minutes): a fixed lifetime, which using the
   * key does not extend. An erasure in another process reaches it sooner: before a key kept in
   * memory is used, the store is asked which keys were destroyed since it was last asked
   * (`DataKeyStore.erasedSince`), and those are forgotten.
   */
  cacheMs?: number;
  /** Opened keys kept in memory at most (default 100,000, about 25 MB; the oldest go first). */
  cacheSize?: number;
  /** Keys made and stored in one write for trainees still to be registered (default 256). */
  poolSize?: number;
  /** Milliseconds since the epoch (a test's clock). */
  now?: () => number;
  /** A new trainee id (default: a random UUID). */
  newId?: () => string;
  /**
   * Told of each key this process opens or makes (read and unwrapped, made, or reserved for a
   * pool): a thread that opens the same trainees' events learns it ({@link DataKeys.learn})
   * instead of reading and unwrapping it again. Never told of an erased key.
   */
  onOpened?: (traineeId: string, key: Buffer) => void;
  /**
   * The key-encryption keys as the service keyring file holds them now (`liveKeysOf`, libs/keys):
   * read again when a stored key names a version not held here (a failure keeps the keys held),
   * and under the keyring's shared lock before every key is wrapped and stored (a pool of new keys,
   * a first key, a rotation's batch, an adopted key), so a running process wraps under the version
   * current when it stores, and no retirement can count before the key is stored
   * (docs/operations.md "Rotating the service key"). Without it the keys given are kept.
   */
  keyring?: LiveKeys;
}

/** A trainee's data key cannot be had: the trainee was erased. */
export class DataKeyDestroyed extends Error {
  constructor(readonly traineeId: string) {
    super(`trainee ${traineeId} was erased: its personal data can no longer be read or written`);
    this.name = 'DataKeyDestroyed';
  }
}

/** A wrapped key that does not unwrap: wrapped under another key-encryption key, or altered. */
export class DataKeyNotOpened extends Error {
  constructor(readonly traineeId: string) {
    super(`the data key of trainee ${traineeId} does not open with this key-encryption key (another service key?)`);
    this.name = 'DataKeyNotOpened';
  }
}

/**
 * The version of the key-encryption key `wrapped` names: `v`, a 4-byte big-endian version, then IV,
 * wrapped key and tag (65 bytes); a 60-byte key from before versions is version 1. Null for any
 * other shape.
 */
export function wrappedKeyVersion(wrapped: Buffer): number | null {
  if (wrapped.length === UNVERSIONED_BYTES) return 1;
  if (wrapped.length === HEADER_BYTES + UNVERSIONED_BYTES && wrapped[0] === VERSIONED) return wrapped.readUInt32BE(1);
  return null;
}

/**
 * The trainees' data keys (crypto-shredding, docs/DESIGN.md "Personal data"): one random AES-256 key per trainee, kept
 * in a {@link DataKeyStore} wrapped with AES-256-GCM (`node:crypto`) under the key-encryption key
 * of the current service key version, the version and the trainee id as the authenticated data (a
 * wrapped key moved to another trainee, or relabelled with another version, does not open; see
 * {@link wrappedKeyVersion}). Destroying a trainee's key makes every value sealed with it
 * unreadable, wherever copies of the ciphertext went; retiring a version (docs/operations.md
 * "Rotating the service key") does the same for every copy of a key wrapped under it. `kek`: the
 * service key's `key-encryption` keys by version, packed (`packVersionedKeys`), or one 32-byte key
 * (version 1).
 */
export class DataKeys {
  /** Opened keys by trainee id, oldest first, with when each stops being trusted (ms). */
  private readonly cache = new Map<string, { key: Buffer | 'erased'; until: number }>();
  /** Ids of trainees still to be registered whose keys are stored, in the order they are handed out. */
  private readonly pool: string[] = [];
  private refill: Promise<void> | null = null;
  private readonly options: Required<Omit<DataKeysOptions, 'onOpened' | 'keyring'>>;
  private readonly onOpened: ((traineeId: string, key: Buffer) => void) | null;
  private readonly keyring: LiveKeys | null;
  private kek: Buffer;
  private keks: VersionedKeys;
  /** The store's mark of the erasures already forgotten here (`DataKeyStore.erasedSince`); null before the first ask. */
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

  /** The key-encryption keys as given, for a thread of this process that opens keys of the same store (never logged or sent out). */
  get keyEncryptionKey(): Buffer {
    return this.kek;
  }

  /** The service key version new keys are wrapped under, as last read (with a keyring, it is read again before each wrap). */
  get currentVersion(): number {
    return this.keks.current;
  }

  /**
   * `wrapped`, the stored key of `traineeId`, wrapped again under the current version; null when it
   * is wrapped under it already. Throws {@link DataKeyNotOpened} when it opens under no version held.
   */
  rewrapped(traineeId: string, wrapped: Buffer): Buffer | null {
    if (wrappedKeyVersion(wrapped) === this.keks.current) return null;
    return this.wrap(traineeId, this.unwrap(traineeId, wrapped));
  }

  /**
   * An id for a trainee still to be registered, whose data key is already stored: keys are made
   * {@link DataKeysOptions.poolSize} at a time, in one durable write, started when half the pool is
   * left, so a create waits on none (docs/DESIGN.md "Personal data"). An id whose trainee is never
   * registered (the create was refused) leaves an unused key behind, which names no one. A failed
   * write is tried again by the next call, and thrown to the calls that find the pool empty.
   */
  async newTraineeId(): Promise<string> {
    while (this.pool.length === 0) await this.refilled();
    const id = this.pool.shift()!;
    // Ahead of need; its failure reaches the create that finds the pool empty, which tries again.
    if (this.pool.length < this.options.poolSize / 2) this.refilled().catch(() => undefined);
    return id;
  }

  private refilled(): Promise<void> {
    return (this.refill ??= this.reserve().finally(() => (this.refill = null)));
  }

  /**
   * The trainee's data key to seal with, made and stored when it has none; a key in memory is used
   * until its {@link DataKeysOptions.cacheMs} are over, then read again. Throws
   * {@link DataKeyDestroyed}, {@link DataKeyNotOpened}.
   */
  async keyFor(traineeId: string): Promise<Buffer> {
    await this.forgetErasedElsewhere();
    const cached = this.cached(traineeId);
    if (cached instanceof Buffer) return cached;
    let key = cached ?? (await this.readStored(traineeId));
    key ??= await this.made(traineeId);
    if (key === 'erased') throw new DataKeyDestroyed(traineeId);
    return key;
  }

  /** A new key for the trainee, wrapped and stored unless another was stored first (that one is kept), opened and kept in memory. */
  private async made(traineeId: string): Promise<Buffer | 'erased'> {
    const key = Buffer.from(randomView(KEY_BYTES));
    const stored = await this.wrapping(() => this.store.ensure(traineeId, this.wrap(traineeId, key)));
    return this.remember(traineeId, this.openStored(stored, traineeId));
  }

  /** The trainee's data key when it has one; null when none was made, `erased` when it was destroyed. Throws {@link DataKeyNotOpened}. */
  async existingKey(traineeId: string): Promise<Buffer | null | 'erased'> {
    await this.forgetErasedElsewhere();
    return this.cached(traineeId) ?? this.readStored(traineeId);
  }

  /** Forgets the keys in memory whose trainees another process (or connection) erased since the last ask. */
  private async forgetErasedElsewhere(): Promise<void> {
    const { mark, traineeIds } = await this.store.erasedSince(this.erasureMark);
    this.erasureMark = mark;
    for (const id of traineeIds) this.cache.delete(id);
  }

  /** The trainee's key read from the store and unwrapped (and kept in memory), as {@link existingKey} answers it. */
  private async readStored(traineeId: string): Promise<Buffer | null | 'erased'> {
    const wrapped = await this.store.get(traineeId);
    return wrapped === null ? null : this.remember(traineeId, this.openStored(wrapped, traineeId));
  }

  /** The trainee's key as stored, wrapped (for an export: it never leaves in the clear); null when none, `erased` when destroyed. */
  wrappedKey(traineeId: string): Promise<Buffer | null | 'erased'> {
    return this.store.get(traineeId);
  }

  /**
   * Stores a wrapped key that came from an export, after checking that it opens under this
   * key-encryption key (throws {@link DataKeyNotOpened} when not, storing nothing). A trainee
   * already holding a key keeps its own; an erased one stays erased.
   */
  async adopt(traineeId: string, wrapped: Buffer): Promise<void> {
    await this.wrapping(async () => {
      this.unwrap(traineeId, wrapped);
      await this.store.ensure(traineeId, wrapped);
    });
  }

  /**
   * Keeps a trainee's key another thread of this process opened from the same store (see
   * {@link DataKeysOptions.onOpened}), as if read here: for as long as a key read here is trusted.
   */
  learn(traineeId: string, key: Buffer): void {
    if (key.length !== KEY_BYTES) throw new Error('a data key is 32 bytes');
    this.keep(traineeId, key);
  }

  /** Destroys the trainee's key (see `DataKeyStore.destroy`) and forgets it here. */
  async destroy(traineeId: string, at: Date): Promise<boolean> {
    this.cache.delete(traineeId);
    const destroyed = await this.store.destroy(traineeId, at);
    this.cache.delete(traineeId);
    return destroyed;
  }

  /**
   * Wraps every stored key again under the current version (docs/operations.md "Rotating the
   * service key"), `batch` keys a read (default 500), while the service goes on writing: each key
   * is replaced only while it is still the one read (`DataKeyStore.replace`), so a key erased or
   * rewrapped meanwhile is left as it is. The data keys themselves do not change: nothing sealed
   * with them is touched, and processes holding them in memory go on. With
   * {@link DataKeysOptions.keyring}, each batch is wrapped under the version current as the keyring
   * file is read for it. Returns the counts: keys rewrapped, found under the current version
   * already, changed meanwhile, and, before the pass, the keys under each version. Throws
   * {@link DataKeyNotOpened} for a key no version held opens.
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

  /** How many stored keys are wrapped under each version (0: a key of no known shape), read `batch` at a time. */
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

  /** Takes the keys {@link DataKeysOptions.keyring} holds now, if any, to open with; keeps those held when it fails. */
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
   * Runs `store`, which wraps keys and stores them, with the keys the keyring holds now, under its
   * shared lock (see {@link DataKeysOptions.keyring}); without a keyring, with the keys held.
   * Throws `KeyringError` when the keyring file cannot be read: nothing is wrapped under a version
   * that may have been retired meanwhile.
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

  /** Keeps the key opened here, and tells {@link DataKeysOptions.onOpened} of it. */
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
