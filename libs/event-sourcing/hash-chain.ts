import * as crypto from 'node:crypto';
import type { ChainLink, RecordedEvent, StoredEventText, StreamHead } from './event-store.port';

/** A stream's hash chain (docs/DESIGN.md "Verifiable history"), computed on the stored texts so a verifier recomputes what was hashed. */

/** Hex SHA-256, 64 characters. */
export const HASH_KEY = 'hash';
export const PREVIOUS_HASH_KEY = 'previousHash';
export const CHAIN_VERSION_KEY = 'chainVersion';
export const CHAIN_VERSION = 2;

/** 0 for an event stored before the chain began. */
export type ChainVersion = 0 | 1 | typeof CHAIN_VERSION;

const HEX64 = /^[0-9a-f]{64}$/;

/** The version 1 hash (also for events stored before the chain); `metadata` without its `hash` key. Lower-case hex. */
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

/** The version 2 hash of `e` at `revision`; `hashed` its stored metadata text without its `hash` key. Lower-case hex. */
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

/** `e`'s hash by the rule its chain keys name; `revision` defaults to its own (a check asks whether it was hashed at another). */
export function eventHash(previousHash: string | null, e: StoredEventText, keys: ChainKeys, revision = e.revision): string {
  return keys.version === CHAIN_VERSION
    ? chainHashV2(previousHash, e, revision, keys.hashed)
    : chainHash(previousHash, e.streamId, revision, e.type, e.data, keys.hashed);
}

function occurredAtIn(metadata: string): string | null {
  try {
    const at = (JSON.parse(metadata) as { occurredAt?: unknown } | null)?.occurredAt;
    return typeof at === 'string' ? at : null;
  } catch {
    return null;
  }
}

/** `crypto.hash` where Node has it (20.12+; a third cheaper per event than a hash object). */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

export interface ChainedEvent {
  metadata: string;
  hash: string;
}

/** `e`'s metadata (a JSON object's text without chain keys) with `chainVersion`, `previousHash`, `hash` added at its end; and that hash. */
export function chainEvent(previousHash: string | null, e: StoredEventText): ChainedEvent {
  const hashed = withKey(withKey(e.metadata, CHAIN_VERSION_KEY, CHAIN_VERSION), PREVIOUS_HASH_KEY, previousHash);
  const hash = chainHashV2(previousHash, e, e.revision, hashed);
  return { metadata: withKey(hashed, HASH_KEY, hash), hash };
}

export interface ChainKeys {
  /** Null when the event has none: stored before the chain began, or altered. */
  hash: string | null;
  previousHash: string | null | undefined;
  hashed: string;
  version: ChainVersion;
}

/** Read from the text's end alone (the verifier reads every event of the log); an end not as {@link chainEvent} writes it has no hash. */
export function readChainKeys(metadata: string): ChainKeys {
  const own = lastKey(metadata, HASH_KEY);
  if (own === null || own.value === null) return { hash: null, previousHash: undefined, hashed: metadata, version: 0 };
  const previous = lastKey(own.rest, PREVIOUS_HASH_KEY);
  const version = previous !== null && endsWithVersion(previous.rest) ? CHAIN_VERSION : 1;
  return { hash: own.value, previousHash: previous === null ? undefined : previous.value, hashed: own.rest, version };
}

function endsWithVersion(text: string): boolean {
  const entry = `"${CHAIN_VERSION_KEY}":${CHAIN_VERSION}}`;
  if (!text.endsWith(entry)) return false;
  const before = text[text.length - entry.length - 1];
  return before === ',' || (before === '{' && text.length === entry.length + 1);
}

/** Without the chain keys, which are the store's own (an event copied from an export carries its source's); the same object if none. */
export function withoutChainKeys<M extends object>(metadata: M): M {
  if (!(HASH_KEY in metadata) && !(PREVIOUS_HASH_KEY in metadata) && !(CHAIN_VERSION_KEY in metadata)) return metadata;
  const copy: Record<string, unknown> = { ...metadata };
  delete copy[HASH_KEY];
  delete copy[PREVIOUS_HASH_KEY];
  delete copy[CHAIN_VERSION_KEY];
  return copy as M;
}

/** Null for an event stored before the chain began. */
export function storedHash(metadata: Readonly<Record<string, unknown>> | null | undefined): string | null {
  const hash = metadata?.[HASH_KEY];
  return typeof hash === 'string' ? hash : null;
}

/** An event's stored hash and the hash it was chained to, for a history that shows them; null for either it does not carry. */
export function chainKeysOf(metadata: Readonly<Record<string, unknown>> | null | undefined): {
  hash: string | null;
  previousHash: string | null;
} {
  const previous = metadata?.[PREVIOUS_HASH_KEY];
  return { hash: storedHash(metadata), previousHash: typeof previous === 'string' ? previous : null };
}

/** What the next append chains to after `event`: its revision and stored hash (null before the chain began: the store reads the head). */
export function streamHeadOf(event: RecordedEvent): StreamHead {
  return { revision: event.streamRevision, link: storedHash(event.metadata) as ChainLink | null };
}

/** A store's kept head hash (a read model's `head_hash`). */
export function chainLinkOf(hash: string | null | undefined): ChainLink | null {
  return (hash ?? null) as ChainLink | null;
}

/** The hash of a stream's last event from its stored texts, hashing events stored before the chain; what an append chains to then. */
export function chainHeadHash(events: readonly StoredEventText[]): string | null {
  let previous: string | null = null;
  for (const e of events) {
    const k = readChainKeys(e.metadata);
    previous = k.hash ?? eventHash(previous, e, k);
  }
  return previous;
}

/** As stored: every adapter stores `JSON.stringify` of data and metadata, which is what the chain hashed. */
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

/** A string value is a hex hash: nothing to escape. */
function withKey(text: string, key: string, value: string | number | null): string {
  const entry = `"${key}":${value === null || typeof value === 'number' ? String(value) : `"${value}"`}}`;
  return text === '{}' ? `{${entry}` : `${text.slice(0, -1)},${entry}`;
}

/** The value of `text`'s last key when it is `key` with null or 64 hex digits (as {@link withKey} writes it), and `text` without it. */
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
