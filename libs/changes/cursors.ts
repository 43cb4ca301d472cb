import { logPosition, type LogPosition } from '@app/event-sourcing';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, type Cipher, type Decipher } from 'node:crypto';

/** Nest token of the process's {@link CursorCodec}. */
export const CURSOR_CODEC = Symbol('CURSOR_CODEC');

/** The first byte of a cursor: its format. */
const FORMAT = 2;
/** One AES block: the position (8 bytes) and the provider's check value (8 bytes). */
const BLOCK_BYTES = 16;
const CURSOR_BYTES = 1 + BLOCK_BYTES;

/** Length of every cursor, in characters (base64url of 17 bytes; docs/change-feed.md "Cursors"). */
export const CURSOR_CHARS = Math.ceil((CURSOR_BYTES * 4) / 3);

/** Providers whose check values are kept; past it the cache starts again (a few hundred providers exist). */
const CHECKS_KEPT = 10_000;

/**
 * The change feed's cursors (docs/change-feed.md "Cursors"): a global position sealed for one
 * provider by encode-then-encipher (Bellare and Rogaway, 2000): the block (position, 8 bytes; the
 * provider's check value, the first 8 bytes of an HMAC-SHA256 of its UKPRN) enciphered with
 * AES-256 as a pseudorandom permutation of one block (`node:crypto`). A client can neither read the
 * position (so the gaps between its own cursors say nothing of other providers' writes) nor make
 * one: a cursor answered to another provider, changed in any bit, or made up deciphers to another
 * check value, and is refused (a forgery succeeds with probability 2^-64). The same position for
 * the same provider always gives the same cursor, so a change's cursor and a page's `next_cursor`
 * compare equal and a webhook's retry carries the cursor of its first attempt. Cost: about 1 µs a
 * cursor (AES-256-GCM, with a cipher per cursor, took 7 µs). Keys: two, derived from `key` (32
 * bytes, the service key's `change-feed-cursors` key).
 */
export class CursorCodec {
  private readonly cipher: Cipher;
  private readonly decipher: Decipher;
  private readonly checkKey: Buffer;
  private readonly checks = new Map<string, Buffer>();

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('a cursor key is 32 bytes');
    const blockKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'block', 32));
    this.checkKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'check', 32));
    // One block at a time through ECB without padding: each block is enciphered on its own, so one cipher serves every cursor.
    this.cipher = createCipheriv('aes-256-ecb', blockKey, null).setAutoPadding(false);
    this.decipher = createDecipheriv('aes-256-ecb', blockKey, null).setAutoPadding(false);
  }

  /** The cursor of global position `position` (`LOG_START`: before the first change) for provider `ukprn`. */
  encode(ukprn: string, position: LogPosition): string {
    return this.seal(ukprn, position);
  }

  /**
   * The position `cursor` stands for when it is one {@link encode} made for `ukprn` with this key;
   * null for anything else (see {@link open}). Never throws. The one place above the stores where a
   * number becomes a {@link LogPosition}: the check value proves that this service enciphered it
   * from a position the store gave (a made-up or altered cursor passes with probability 2^-64).
   */
  decode(ukprn: string, cursor: string): LogPosition | null {
    const position = this.open(ukprn, cursor);
    return position === null ? null : logPosition(position);
  }

  /** The cursor of `value` (a safe integer ≥ 0: a position, or another reader's place) for `scope` (a UKPRN, or a scope of its own). */
  seal(scope: string, value: number): string {
    const block = Buffer.alloc(BLOCK_BYTES);
    block.writeBigUInt64BE(BigInt(value));
    this.checkOf(scope).copy(block, 8);
    return Buffer.concat([Buffer.from([FORMAT]), this.cipher.update(block)]).toString('base64url');
  }

  /**
   * The value `cursor` stands for when it is one {@link seal} made for `scope` with this key; null
   * for anything else (another scope's, another key's, altered, of another length or alphabet,
   * padded). Never throws.
   */
  open(scope: string, cursor: string): number | null {
    if (cursor.length !== CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.length !== CURSOR_BYTES || bytes[0] !== FORMAT || bytes.toString('base64url') !== cursor) return null;
    const block = this.decipher.update(bytes.subarray(1));
    if (!block.subarray(8).equals(this.checkOf(scope))) return null;
    const position = block.readBigUInt64BE();
    return position <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(position) : null;
  }

  /** The scope's check value: the first 8 bytes of HMAC-SHA256(check key, scope: a provider's UKPRN), kept. */
  private checkOf(scope: string): Buffer {
    let check = this.checks.get(scope);
    if (!check) {
      if (this.checks.size >= CHECKS_KEPT) this.checks.clear();
      check = createHmac('sha256', this.checkKey).update(scope).digest().subarray(0, 8);
      this.checks.set(scope, check);
    }
    return check;
  }
}
