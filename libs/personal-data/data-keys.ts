import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { DataKeyStore } from './data-key-store.port';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A trainee's data key cannot be had: the trainee was erased. */
export class TraineeErased extends Error {
  constructor(readonly traineeId: string) {
    super(`trainee ${traineeId} was erased: its personal data can no longer be read or written`);
    this.name = 'TraineeErased';
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
 * The trainees' data keys (issue 27, crypto-shredding): one random AES-256 key per trainee, kept
 * in a {@link DataKeyStore} wrapped with AES-256-GCM (`node:crypto`) under the key-encryption key,
 * the trainee id as the authenticated data (a wrapped key moved to another trainee does not open).
 * Destroying a trainee's key makes every value sealed with it unreadable, wherever copies of the
 * ciphertext went. `kek`: 32 bytes, the service key's `key-encryption` key.
 */
export class DataKeys {
  constructor(
    private readonly store: DataKeyStore,
    private readonly kek: Buffer,
  ) {
    if (kek.length !== KEY_BYTES) throw new Error('a key-encryption key is 32 bytes');
  }

  /** The trainee's data key, made and stored when it has none. Throws {@link TraineeErased}, {@link DataKeyNotOpened}. */
  async keyFor(traineeId: string): Promise<Buffer> {
    const wrapped = await this.store.ensure(traineeId, this.wrap(traineeId, randomBytes(KEY_BYTES)));
    if (wrapped === 'erased') throw new TraineeErased(traineeId);
    return this.unwrap(traineeId, wrapped);
  }

  /** The trainee's data key when it has one; null when none was made, `erased` when it was destroyed. */
  async existingKey(traineeId: string): Promise<Buffer | null | 'erased'> {
    const wrapped = await this.store.get(traineeId);
    return wrapped === null || wrapped === 'erased' ? wrapped : this.unwrap(traineeId, wrapped);
  }

  /** Destroys the trainee's key (see `DataKeyStore.destroy`). */
  destroy(traineeId: string, at: Date): Promise<boolean> {
    return this.store.destroy(traineeId, at);
  }

  private wrap(traineeId: string, key: Buffer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.kek, iv).setAAD(Buffer.from(traineeId));
    return Buffer.concat([iv, cipher.update(key), cipher.final(), cipher.getAuthTag()]);
  }

  private unwrap(traineeId: string, wrapped: Buffer): Buffer {
    if (wrapped.length !== IV_BYTES + KEY_BYTES + TAG_BYTES) throw new DataKeyNotOpened(traineeId);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.kek, wrapped.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(traineeId)).setAuthTag(wrapped.subarray(IV_BYTES + KEY_BYTES));
      return Buffer.concat([decipher.update(wrapped.subarray(IV_BYTES, IV_BYTES + KEY_BYTES)), decipher.final()]);
    } catch {
      throw new DataKeyNotOpened(traineeId);
    }
  }
}
