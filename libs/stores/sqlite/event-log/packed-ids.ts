/**
 * The stored form of an event id in the embedded log (docs/DESIGN.md "The event store port"): the lower-case UUID's 16 bytes, a BLOB,
 * in rows appended since schema 2; its text in rows of before, which read as they are. Ids are unique across both forms because an
 * append looks each id up in both ({@link storedIdForms}) inside its write transaction before it inserts.
 */

const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What to store for the event id `id`: 16 bytes for a lower-case UUID (as the store keeps every id), else `id` itself. */
export function packEventId(id: string): Buffer | string {
  if (id.length !== 36 || !LOWER_UUID.test(id)) return id;
  const bytes = Buffer.allocUnsafe(16);
  writeHexDigits(bytes, 0, id);
  return bytes;
}

const NIBBLES = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit++) NIBBLES[digit.toString(16).charCodeAt(0)] = digit;

/**
 * Writes the bytes of `text`'s lower-case hex digits, dashes skipped, into `target` from `at` (a checked UUID or hash: Buffer.write
 * would need one call per dash-free part, each costing more than this loop); returns the bytes written.
 */
export function writeHexDigits(target: Uint8Array, at: number, text: string): number {
  let out = at;
  let high = -1;
  for (let i = 0; i < text.length; i++) {
    const nibble = NIBBLES[text.charCodeAt(i)];
    if (nibble < 0) continue;
    if (high < 0) {
      high = nibble;
    } else {
      target[out++] = (high << 4) | nibble;
      high = -1;
    }
  }
  return out - at;
}

/** The forms `id` may be stored in, packed and text, to look it up in rows of either. */
export function storedIdForms(id: string): [Buffer | string, string] {
  return [packEventId(id), id];
}

/** The event id of a stored value: a text as it is, 16 bytes as the lower-case UUID. Error for a BLOB of another length. */
export function eventIdText(stored: string | Uint8Array): string {
  if (typeof stored === 'string') return stored;
  if (stored.length !== 16) throw new Error(`a stored event id of ${stored.length} bytes`);
  const h = (Buffer.isBuffer(stored) ? stored : Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength)).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
