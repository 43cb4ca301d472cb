/**
 * An upload's parts (its file, its row messages) sealed with the upload's own data key before they
 * are stored (upload-files.port.ts; docs/DESIGN.md "Uploads"): IV (12 bytes) ‖ AES-256-GCM
 * ciphertext of the bytes ‖ tag (16 bytes), `node:crypto`, a random IV per part. The authenticated
 * data binds a part to its upload and name (`["upload-part/1", upload_id, part]`, UTF-8 JSON), so a
 * part moved to another upload or name does not open. Destroying the upload's key makes every copy
 * unreadable; the purge deletes the stored ones as well.
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { randomView } from '@app/event-sourcing';
import { SealedValuesNotOpened } from '@app/personal-data';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The authenticated data of a part. */
function partAad(uploadId: string, part: string): Buffer {
  return Buffer.from(JSON.stringify(['upload-part/1', uploadId, part]));
}

/** SHA-256 of `bytes`, 64 lower-case hex digits: what the events name a file and its messages by. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * `bytes` sealed as the part `part` of `uploadId` under `key`; as they are when `key` is null
 * (nothing sealed: the sandbox's comparison only).
 */
export function sealPart(bytes: Uint8Array, key: Buffer | null, uploadId: string, part: string): Uint8Array {
  if (key === null) return bytes;
  const iv = randomView(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(partAad(uploadId, part));
  return Buffer.concat([iv, cipher.update(bytes), cipher.final(), cipher.getAuthTag()]);
}

/**
 * The bytes of a part sealed by {@link sealPart}. Throws `SealedValuesNotOpened` when it does not
 * open with `key` (altered, another upload's, or another part's).
 */
export function openPart(sealed: Uint8Array, key: Buffer | null, uploadId: string, part: string): Buffer {
  if (key === null) return Buffer.from(sealed);
  const box = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (box.length < IV_BYTES + TAG_BYTES) throw new SealedValuesNotOpened();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, box.subarray(0, IV_BYTES)).setAAD(partAad(uploadId, part));
    decipher.setAuthTag(box.subarray(box.length - TAG_BYTES));
    return Buffer.concat([decipher.update(box.subarray(IV_BYTES, box.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SealedValuesNotOpened();
  }
}
