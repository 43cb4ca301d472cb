/**
 * Parts sealed with the upload's data key: IV ‖ AES-256-GCM ‖ tag, authenticated with `["upload-part/1", upload_id, part]` so a part
 * moved to another upload or name does not open (docs/DESIGN.md "Uploads").
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { randomView } from '@app/event-sourcing';
import { SealedValuesNotOpened } from '@app/personal-data';

const IV_BYTES = 12;
const TAG_BYTES = 16;

function partAad(uploadId: string, part: string): Buffer {
  return Buffer.from(JSON.stringify(['upload-part/1', uploadId, part]));
}

/** Lower-case hex: what the events name a file and its messages by. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** As they are when `key` is null (the sandbox's comparison only). */
export function sealPart(bytes: Uint8Array, key: Buffer | null, uploadId: string, part: string): Uint8Array {
  if (key === null) return bytes;
  const iv = randomView(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(partAad(uploadId, part));
  return Buffer.concat([iv, cipher.update(bytes), cipher.final(), cipher.getAuthTag()]);
}

/** `SealedValuesNotOpened` when altered, another upload's or another part's. */
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
