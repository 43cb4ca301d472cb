/**
 * The stored form of an event id in the embedded log (docs/DESIGN.md "The event store port"): the lower-case UUID's 16 bytes, a BLOB,
 * in rows appended since schema 2; its text in rows of before, which read as they are. Ids are unique across both forms because an
 * append looks each id up in both ({@link storedIdForms}) inside its write transaction before it inserts.
 */

const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What to store for the event id `id`: 16 bytes for a lower-case UUID (as the store keeps every id), else `id` itself. */
export function packEventId(id: string): Buffer | string {
  return id.length === 36 && LOWER_UUID.test(id) ? Buffer.from(id.replace(/-/g, ''), 'hex') : id;
}

/** The forms `id` may be stored in, packed and text, to look it up in rows of either. */
export function storedIdForms(id: string): [Buffer | string, string] {
  return [packEventId(id), id];
}

/** The event id of a stored value: a text as it is, 16 bytes as the lower-case UUID. Error for a BLOB of another length. */
export function eventIdText(stored: string | Uint8Array): string {
  if (typeof stored === 'string') return stored;
  if (stored.length !== 16) throw new Error(`a stored event id of ${stored.length} bytes`);
  const h = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
