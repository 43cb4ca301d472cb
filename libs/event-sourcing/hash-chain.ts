import * as crypto from 'node:crypto';
import type { ChainLink, RecordedEvent, StoredEventText, StreamHead } from './event-store.port';

/**
 * The hash chain of a stream (docs/DESIGN.md "Verifiable history"). Every event's stored metadata
 * ends with the keys the event store adds at append, in this order: `"chainVersion":2` (the rule
 * its hash was made by; absent for version 1), `"previousHash":<hex or null>` (the hash of the
 * stream's previous event; null for revision 0) and `"hash":<hex>`, the SHA-256 of a UTF-8 text:
 *
 * - version 2 (every event appended now):
 *
 *       JSON.stringify(["chain/2", previousHash, streamId, revision, type, eventId, occurredAt,
 *                       bytes(data), bytes(metadata)]) + "\n" + data + metadata
 *
 *   where `eventId` is the event's id (the writer's UUID), `occurredAt` the metadata's
 *   `occurredAt` as the writer set it before the hash was made (null when it holds none), and
 *   `bytes(x)` the length of `x` in UTF-8 bytes: the header is JSON (no raw line feed), and the
 *   lengths say where `data` ends, whatever the texts hold;
 * - version 1 (events appended before version 2):
 *
 *       JSON.stringify([previousHash, streamId, revision, type]) + "\n" + data + "\n" + metadata
 *
 * where `data` is the event's data exactly as stored (JSON text; sealed personal values stay
 * sealed) and `metadata` its stored metadata without the `hash` key (so with `chainVersion` and
 * `previousHash`). A stream may hold events stored before the chain began (no keys; hashed by the
 * version 1 rule, chained to the one before, so the first chained event of an older stream carries
 * the hash of the whole older part as its `previousHash`), then version 1 events, then version 2
 * ones, never an older kind after a newer one (docs/DESIGN.md "Verifiable history").
 *
 * Everything here works on the stored texts, never on parsed objects (but for a version 2 event's
 * `occurredAt`): a verifier that reads the store recomputes exactly what was hashed
 * (`examples/verify-history.mjs` does the same with no import from this project).
 */

/** The metadata key of an event's own hash (hex SHA-256, 64 characters). */
export const HASH_KEY = 'hash';
/** The metadata key of the hash of the stream's previous event (null for revision 0). */
export const PREVIOUS_HASH_KEY = 'previousHash';
/** The metadata key of the version of the rule an event's hash was made by (absent for version 1). */
export const CHAIN_VERSION_KEY = 'chainVersion';
/** The version of the chain rule events are hashed by when appended now. */
export const CHAIN_VERSION = 2;

/** The rule an event was hashed by: 0 for an event stored before the chain began, else the chain version. */
export type ChainVersion = 0 | 1 | typeof CHAIN_VERSION;

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * The version 1 hash of one event (see the file's comment): `previousHash` null for a stream's
 * first event, `metadata` the stored metadata text without its `hash` key. Lower-case hex, 64
 * characters. Also the rule for events stored before the chain began.
 */
export function chainHash(
  previousHash: string | null,
  streamId: string,
  revision: number,
  type: string,
  data: string,
  metadata: string,
): string {
  return sha256Hex(`${JSON.stringify([previousHash, streamId, revision, type])}\n${data}\n${metadata}`);
}

/**
 * The version 2 hash of the event `e` at `revision` (see the file's comment): `hashed` its stored
 * metadata text without its `hash` key. Lower-case hex, 64 characters.
 */
export function chainHashV2(previousHash: string | null, e: StoredEventText, revision: number, hashed: string): string {
  const header = [
    'chain/2',
    previousHash,
    e.streamId,
    revision,
    e.type,
    e.id,
    occurredAtIn(hashed),
    Buffer.byteLength(e.data),
    Buffer.byteLength(hashed),
  ];
  return sha256Hex(`${JSON.stringify(header)}\n${e.data}${hashed}`);
}

/**
 * The hash of the stored event `e` chained to `previousHash`, by the rule its chain keys name
 * (`keys`, {@link readChainKeys} of its metadata): version 2, or version 1 (also for an event
 * stored before the chain began). `revision`: where it is hashed (default its own; a check asks
 * whether it was hashed at another).
 */
export function eventHash(previousHash: string | null, e: StoredEventText, keys: ChainKeys, revision = e.revision): string {
  return keys.version === CHAIN_VERSION
    ? chainHashV2(previousHash, e, revision, keys.hashed)
    : chainHash(previousHash, e.streamId, revision, e.type, e.data, keys.hashed);
}

/** The `occurredAt` of a metadata text when it is a string; null otherwise (or when the text is not JSON). */
function occurredAtIn(metadata: string): string | null {
  try {
    const at = (JSON.parse(metadata) as { occurredAt?: unknown } | null)?.occurredAt;
    return typeof at === 'string' ? at : null;
  } catch {
    return null;
  }
}

/**
 * SHA-256 of a text's UTF-8, hex: `crypto.hash` where Node has it (20.12 and later; a third
 * cheaper per event than a hash object), else `createHash`.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/** What {@link chainEvent} stores of one event: its metadata text with both keys added, and its hash. */
export interface ChainedEvent {
  metadata: string;
  hash: string;
}

/**
 * The stored metadata of the event `e` (its `metadata` a JSON object's text holding no chain key)
 * appended after an event whose hash is `previousHash` (null at revision 0): its metadata with
 * `chainVersion` ({@link CHAIN_VERSION}), `previousHash` and then `hash` added at its end; and that
 * hash (version 2: {@link chainHashV2}).
 */
export function chainEvent(previousHash: string | null, e: StoredEventText): ChainedEvent {
  const hashed = withKey(withKey(e.metadata, CHAIN_VERSION_KEY, CHAIN_VERSION), PREVIOUS_HASH_KEY, previousHash);
  const hash = chainHashV2(previousHash, e, e.revision, hashed);
  return { metadata: withKey(hashed, HASH_KEY, hash), hash };
}

/** What a stored metadata text says of the chain (see {@link readChainKeys}). */
export interface ChainKeys {
  /** The stored hash; null when the event has none (stored before the chain began, or altered). */
  hash: string | null;
  /** The stored previous hash: a hex hash, null for a first event, undefined when the event has none. */
  previousHash: string | null | undefined;
  /** The metadata text without its `hash` key: what the hash is made of. */
  hashed: string;
  /** The rule the hash was made by: {@link CHAIN_VERSION} when `chainVersion` precedes `previousHash`, 1 without it, 0 with no hash. */
  version: ChainVersion;
}

/**
 * The chain keys at the end of a stored metadata text, read from the text's end alone (the
 * verifier reads every event of the log). A text whose end is not as {@link chainEvent} writes it
 * has no hash.
 */
export function readChainKeys(metadata: string): ChainKeys {
  const own = lastKey(metadata, HASH_KEY);
  if (own === null || own.value === null) return { hash: null, previousHash: undefined, hashed: metadata, version: 0 };
  const previous = lastKey(own.rest, PREVIOUS_HASH_KEY);
  const version = previous !== null && endsWithVersion(previous.rest) ? CHAIN_VERSION : 1;
  return { hash: own.value, previousHash: previous === null ? undefined : previous.value, hashed: own.rest, version };
}

/** True when a JSON object's text ends with the key `"chainVersion":2`, as {@link chainEvent} writes it. */
function endsWithVersion(text: string): boolean {
  const entry = `"${CHAIN_VERSION_KEY}":${CHAIN_VERSION}}`;
  if (!text.endsWith(entry)) return false;
  const before = text[text.length - entry.length - 1];
  return before === ',' || (before === '{' && text.length === entry.length + 1);
}

/**
 * `metadata` without the chain keys: what an append passes on, since the chain is the store's
 * own (an event copied from an export carries the keys of its source). The same object when it
 * has neither.
 */
export function withoutChainKeys<M extends object>(metadata: M): M {
  if (!(HASH_KEY in metadata) && !(PREVIOUS_HASH_KEY in metadata) && !(CHAIN_VERSION_KEY in metadata)) return metadata;
  const copy: Record<string, unknown> = { ...metadata };
  delete copy[HASH_KEY];
  delete copy[PREVIOUS_HASH_KEY];
  delete copy[CHAIN_VERSION_KEY];
  return copy as M;
}

/** The hash an event read back carries in its metadata (`hash`); null for an event stored before the chain began. */
export function storedHash(metadata: Readonly<Record<string, unknown>> | null | undefined): string | null {
  const hash = metadata?.[HASH_KEY];
  return typeof hash === 'string' ? hash : null;
}

/**
 * What an event read back says of its place in the chain, for a history that shows it: its stored
 * hash and the previous event's hash it was chained to; null for either it does not carry (an event
 * stored before the chain began has neither).
 */
export function chainKeysOf(metadata: Readonly<Record<string, unknown>> | null | undefined): {
  hash: string | null;
  previousHash: string | null;
} {
  const previous = metadata?.[PREVIOUS_HASH_KEY];
  return { hash: storedHash(metadata), previousHash: typeof previous === 'string' ? previous : null };
}

/**
 * The head of a stream whose last event read is `event`: its revision, and the link the next
 * append chains to (the event's stored hash; null for an event stored before the chain began,
 * whose store then reads the head to chain). What a command hands back as its append's
 * `expectedRevision` (`StreamHead`), and a projection keeps for the commands that start from it.
 */
export function streamHeadOf(event: RecordedEvent): StreamHead {
  return { revision: event.streamRevision, link: storedHash(event.metadata) as ChainLink | null };
}

/**
 * The link a store kept for a stream's head (a read model's `head_hash`) as a {@link ChainLink}; null
 * for none. For the stores that keep a head beside a snapshot.
 */
export function chainLinkOf(hash: string | null | undefined): ChainLink | null {
  return (hash ?? null) as ChainLink | null;
}

/**
 * The hash of a stream's last event, from the stream's stored texts in revision order: each event's
 * stored hash, or for an event stored before the chain began its hash computed by the rule chained
 * to the one before (so a stream whose head has no hash gets the hash of its whole older part);
 * null for no event. What an append chains to when the head it reads has no hash; the same as the
 * audit's check of the stream finds for its head.
 */
export function chainHeadHash(events: readonly StoredEventText[]): string | null {
  let previous: string | null = null;
  for (const e of events) {
    const k = readChainKeys(e.metadata);
    previous = k.hash ?? eventHash(previous, e, k);
  }
  return previous;
}

/**
 * An event read through the port as its stored form: data and metadata as `JSON.stringify` writes
 * them, which is how every adapter stores them (what the chain hashed), with its position.
 */
export function storedTextOf(e: RecordedEvent): StoredEventText & { position: number } {
  return {
    streamId: e.streamId,
    revision: e.streamRevision,
    id: e.id,
    type: e.type,
    data: JSON.stringify(e.data),
    metadata: JSON.stringify(e.metadata),
    position: e.position,
  };
}

/** `text` (a JSON object's text) with `"key":value` added at its end (a string value is a hex hash: nothing to escape). */
function withKey(text: string, key: string, value: string | number | null): string {
  const entry = `"${key}":${value === null || typeof value === 'number' ? String(value) : `"${value}"`}}`;
  return text === '{}' ? `{${entry}` : `${text.slice(0, -1)},${entry}`;
}

/**
 * The value of `text`'s last key when that key is `key` and its value null or 64 lower-case hex
 * digits (as {@link withKey} writes it), and `text` without it; null otherwise.
 */
function lastKey(text: string, key: string): { value: string | null; rest: string } | null {
  const opening = `"${key}":`;
  const valueLength = text.endsWith('null}') ? 4 : 66;
  const start = text.length - 1 - valueLength - opening.length;
  if (start < 1 || text[text.length - 1] !== '}' || !text.startsWith(opening, start)) return null;
  let value: string | null = null;
  if (valueLength === 66) {
    value = text.slice(start + opening.length + 1, text.length - 2);
    if (text[text.length - 2] !== '"' || text[start + opening.length] !== '"' || !HEX64.test(value)) return null;
  }
  const before = text[start - 1];
  if (before === '{') return start === 1 ? { value, rest: '{}' } : null;
  return before === ',' ? { value, rest: `${text.slice(0, start - 1)}}` } : null;
}
