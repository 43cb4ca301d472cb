/**
 * Keys of one purpose by version, packed in one Buffer to travel as a single key did: entries of a 4-byte big-endian version and a
 * 32-byte key, current first. A lone 32-byte key is version 1.
 */
export interface VersionedKeys {
  current: number;
  keys: ReadonlyMap<number, Buffer>;
}

const KEY_BYTES = 32;
const ENTRY_BYTES = 4 + KEY_BYTES;

/** Throws for a key that is not 32 bytes. */
export function packVersionedKeys(keys: VersionedKeys): Buffer {
  const versions = [keys.current, ...[...keys.keys.keys()].filter((v) => v !== keys.current)];
  return Buffer.concat(
    versions.map((v) => {
      const key = keys.keys.get(v);
      if (!key || key.length !== KEY_BYTES) throw new Error(`the key of version ${v} is not 32 bytes`);
      const entry = Buffer.alloc(ENTRY_BYTES);
      entry.writeUInt32BE(v, 0);
      key.copy(entry, 4);
      return entry;
    }),
  );
}

/** Throws for a length that is neither 32 nor whole entries. */
export function unpackVersionedKeys(packed: Buffer): VersionedKeys {
  if (packed.length === KEY_BYTES) return { current: 1, keys: new Map([[1, Buffer.from(packed)]]) };
  if (packed.length === 0 || packed.length % ENTRY_BYTES !== 0) throw new Error('keys are 32 bytes, or packed versioned keys');
  const keys = new Map<number, Buffer>();
  for (let at = 0; at < packed.length; at += ENTRY_BYTES) {
    keys.set(packed.readUInt32BE(at), Buffer.from(packed.subarray(at + 4, at + ENTRY_BYTES)));
  }
  return { current: packed.readUInt32BE(0), keys };
}
