/**
 * The stored form of an event's metadata in the embedded log (docs/DESIGN.md "The event store port"): the JSON text, or, where it packs
 * back to the very same text, a BLOB of about a third of its bytes. Every reader gets the text back ({@link metadataText}), so the hash
 * chain, the audit, exports and histories see what was hashed; rows stored as text before the packing read as they always did.
 *
 * A packed BLOB is a format byte, then per top-level key of the object, in order: the key (a byte naming one of {@link KNOWN_KEYS}, or
 * {@link CUSTOM_KEY} and the key's UTF-8) and its value (a tag byte and its bytes): ids as 16 bytes, hex hashes as 32, `occurredAt`-like
 * times as 6, a string equal to an earlier value as that value's index, anything else as its JSON text.
 */

import { writeHexDigits } from './packed-ids';

const FORMAT = 1;

/** Key codes 0.. in this order; only ever appended to (a stored code never changes its key). */
const KNOWN_KEYS = [
  'schemaVersion',
  'occurredAt',
  'providerUkprn',
  'apiVersion',
  'requestId',
  'causationId',
  'correlationId',
  'tokenId',
  'userId',
  'traceparent',
  'chainVersion',
  'previousHash',
  'hash',
] as const;
const CUSTOM_KEY = 0xff;
const KEY_CODES = new Map<string, number>(KNOWN_KEYS.map((key, code) => [key, code]));
const KEY_TEXTS = KNOWN_KEYS.map((key) => `${JSON.stringify(key)}:`);

const enum Tag {
  Null = 0,
  True = 1,
  False = 2,
  /** A safe integer ≥ 0, as a varint. */
  Count = 3,
  /** UTF-8 of a string, after its byte length as a varint. */
  Text = 4,
  /** A lower-case UUID: 16 bytes. */
  Uuid = 5,
  /** 64 lower-case hex digits: 32 bytes. */
  Hex64 = 6,
  /** `Date.toISOString()` of a time from 1970 to 10889: milliseconds in 6 bytes, big-endian. */
  Time = 7,
  /** The same string as the value of an earlier key: that key's index, one byte. */
  Same = 8,
  /** Any other JSON value: its text's UTF-8, after its byte length as a varint. */
  Json = 9,
  /** Decimal digits without a leading zero, up to 15 (a UKPRN): their number as a varint. */
  Digits = 10,
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DIGITS = /^[1-9][0-9]{0,14}$/;
/** Entries a packed form holds at most (a `Same` index is one byte). */
const MAX_ENTRIES = 255;

/**
 * What to store for the metadata text `text` (a JSON object's): a packed BLOB when it reads back as exactly `text`, else `text` itself
 * (a text that is not a JSON object, repeats a key, orders its keys as JavaScript would not keep them, or writes a value otherwise than
 * `JSON.stringify` does).
 */
export function packMetadata(text: string): Buffer | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return text;
  const packed = pack(value as Record<string, unknown>);
  return packed !== null && metadataText(packed) === text ? packed : text;
}

/** The metadata text of a stored value: a text as it is, a packed BLOB unpacked. Error for a BLOB not of a known format. */
export function metadataText(stored: string | Uint8Array): string {
  if (typeof stored === 'string') return stored;
  const read = reader(stored);
  const texts: string[] = [];
  let text = '{';
  while (read.more()) {
    const key = keyText(read);
    const value = valueText(read, texts);
    texts.push(value);
    text += texts.length === 1 ? key + value : `,${key}${value}`;
  }
  return `${text}}`;
}

/** `JSON.parse(metadataText(stored))`, without the text in between for a packed BLOB. */
export function metadataObject(stored: string | Uint8Array): Record<string, unknown> {
  if (typeof stored === 'string') return JSON.parse(stored) as Record<string, unknown>;
  const read = reader(stored);
  const values: unknown[] = [];
  const object: Record<string, unknown> = {};
  while (read.more()) {
    const code = read.byte();
    const key = code === CUSTOM_KEY ? read.text() : KNOWN_KEYS[code];
    // `packMetadata` never packs `__proto__`, which an assignment would take for the prototype.
    if (key === undefined || key === '__proto__') throw new Error(`stored metadata names unknown key ${code}`);
    const value = valueOf(read, values);
    values.push(value);
    object[key] = value;
  }
  return object;
}

/** Null where an entry cannot be packed (then the text is stored). */
function pack(object: Record<string, unknown>): Buffer | null {
  const out = writer;
  out.start();
  out.byte(FORMAT);
  const strings = new Map<string, number>();
  let index = 0;
  for (const key in object) {
    const value = object[key];
    if (index === MAX_ENTRIES || key === '__proto__') return null;
    const code = KEY_CODES.get(key);
    if (code === undefined) out.byte(CUSTOM_KEY).text(key);
    else out.byte(code);
    if (typeof value === 'string') {
      const same = strings.get(value);
      if (same === undefined) {
        strings.set(value, index);
        packString(out, value);
      } else {
        out.byte(Tag.Same).byte(same);
      }
    } else if (value === null) out.byte(Tag.Null);
    else if (value === true) out.byte(Tag.True);
    else if (value === false) out.byte(Tag.False);
    else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) out.byte(Tag.Count).varint(value);
    else out.byte(Tag.Json).text(JSON.stringify(value));
    index++;
  }
  return out.done();
}

function packString(out: Writer, value: string): void {
  if (value.length === 36 && UUID.test(value)) {
    out.byte(Tag.Uuid).hex(value, 16);
  } else if (value.length === 64 && HEX64.test(value)) {
    out.byte(Tag.Hex64).hex(value, 32);
  } else if (value.length === 24 && ISO_TIME.test(value) && inTimeRange(Date.parse(value))) {
    out.byte(Tag.Time).uint48(Date.parse(value));
  } else if (value.length <= 15 && DIGITS.test(value)) {
    out.byte(Tag.Digits).varint(Number(value));
  } else {
    out.byte(Tag.Text).text(value);
  }
}

/** Milliseconds that 6 bytes hold; a time `toISOString` would write otherwise fails `packMetadata`'s check of the whole. */
function inTimeRange(ms: number): boolean {
  return ms >= 0 && ms < 2 ** 48;
}

function reader(stored: Uint8Array): Reader {
  const bytes = Buffer.isBuffer(stored) ? stored : Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (bytes[0] !== FORMAT) throw new Error(`stored metadata of unknown format ${bytes[0]}`);
  return new Reader(bytes, 1);
}

function keyText(read: Reader): string {
  const code = read.byte();
  const key = code === CUSTOM_KEY ? `${JSON.stringify(read.text())}:` : KEY_TEXTS[code];
  if (key === undefined) throw new Error(`stored metadata names unknown key ${code}`);
  return key;
}

/** The JSON text of the next value; `texts` those before it. */
function valueText(read: Reader, texts: string[]): string {
  const tag = read.byte() as Tag;
  switch (tag) {
    case Tag.Text:
      return JSON.stringify(read.text());
    case Tag.Same:
      return earlier(texts, read.byte());
    case Tag.Json:
      return read.text();
    case Tag.Count:
      return String(read.varint());
    case Tag.Null:
      return 'null';
    case Tag.True:
      return 'true';
    case Tag.False:
      return 'false';
    default:
      return `"${stringOf(tag, read)}"`;
  }
}

/** The next value as `JSON.parse` makes it; `values` those before it. */
function valueOf(read: Reader, values: unknown[]): unknown {
  const tag = read.byte() as Tag;
  switch (tag) {
    case Tag.Text:
      return read.text();
    case Tag.Same:
      return earlier(values, read.byte());
    case Tag.Json:
      return JSON.parse(read.text()) as unknown;
    case Tag.Count:
      return read.varint();
    case Tag.Null:
      return null;
    case Tag.True:
      return true;
    case Tag.False:
      return false;
    default:
      return stringOf(tag, read);
  }
}

/** A string packed by its kind (none needs escaping in JSON). */
function stringOf(tag: Tag, read: Reader): string {
  switch (tag) {
    case Tag.Uuid: {
      const h = read.hex(16);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    case Tag.Hex64:
      return read.hex(32);
    case Tag.Time:
      return isoTime(read.uint48());
    case Tag.Digits:
      return String(read.varint());
    default:
      throw new Error(`stored metadata has unknown value tag ${tag as number}`);
  }
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
/** Events of one day share the text of their date: the last one's is kept. */
let lastDay = { day: NaN, text: '' };

/**
 * `new Date(ms).toISOString()` for `ms` ≥ 0, at a fraction of its cost (the audit unpacks a time per event): the date's text from
 * `toISOString` once a day, the time of day by arithmetic.
 */
function isoTime(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay.day) {
    const midnight = new Date(day * DAY_MS).toISOString();
    lastDay = { day, text: midnight.slice(0, midnight.indexOf('T') + 1) };
  }
  let rest = ms - day * DAY_MS;
  const milliseconds = rest % 1000;
  rest = (rest - milliseconds) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${lastDay.text}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[milliseconds]}Z`;
}

function earlier<T>(values: T[], index: number): T {
  if (index >= values.length) throw new Error('stored metadata refers to a later value');
  return values[index];
}

/** Appends to a buffer grown as needed. */
class Writer {
  private buf = Buffer.allocUnsafe(512);
  private at = 0;

  start(): void {
    this.at = 0;
  }

  byte(value: number): this {
    this.room(1);
    this.buf[this.at++] = value;
    return this;
  }

  varint(value: number): this {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    return this.byte(rest);
  }

  text(value: string): this {
    const length = Buffer.byteLength(value);
    this.varint(length);
    this.room(length);
    this.at += this.buf.write(value, this.at, 'utf8');
    return this;
  }

  /** `value`'s hex digits (dashes skipped), `bytes` of them. */
  hex(value: string, bytes: number): this {
    this.room(bytes);
    this.at += writeHexDigits(this.buf, this.at, value);
    return this;
  }

  uint48(value: number): this {
    this.room(6);
    this.buf.writeUIntBE(value, this.at, 6);
    this.at += 6;
    return this;
  }

  done(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.at));
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }
}

/** One per thread: packing is synchronous. */
const writer = new Writer();

/** Reads a packed form; RangeError past its end. */
class Reader {
  constructor(
    private readonly buf: Buffer,
    private at: number,
  ) {}

  more(): boolean {
    return this.at < this.buf.length;
  }

  byte(): number {
    if (this.at >= this.buf.length) throw new RangeError('stored metadata ends early');
    return this.buf[this.at++];
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
  }

  text(): string {
    const length = this.varint();
    const end = this.skip(length);
    return this.buf.toString('utf8', end - length, end);
  }

  hex(bytes: number): string {
    const end = this.skip(bytes);
    return this.buf.toString('hex', end - bytes, end);
  }

  uint48(): number {
    const end = this.skip(6);
    return this.buf.readUIntBE(end - 6, 6);
  }

  private skip(bytes: number): number {
    if (this.at + bytes > this.buf.length) throw new RangeError('stored metadata ends early');
    this.at += bytes;
    return this.at;
  }
}
