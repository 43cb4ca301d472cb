import { logPosition, type LogPosition } from '@app/event-sourcing';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, type Cipher, type Decipher } from 'node:crypto';

export const CURSOR_CODEC = Symbol('CURSOR_CODEC');

const FORMAT = 2;
/** One AES block: position (8 bytes) and the provider's check value (8 bytes). */
const BLOCK_BYTES = 16;
const CURSOR_BYTES = 1 + BLOCK_BYTES;

/** Base64url of 17 bytes. */
export const CURSOR_CHARS = Math.ceil((CURSOR_BYTES * 4) / 3);

/** Past this many providers the cache starts again (a few hundred exist). */
const CHECKS_KEPT = 10_000;

/**
 * Change feed cursors (docs/change-feed.md "Cursors"): encode-then-encipher (Bellare and Rogaway, 2000) of the position and the
 * provider's check value in one AES-256 block, so a client can neither read a position nor make a cursor (a forgery passes with
 * probability 2^-64), and one position gives one cursor per provider. `key`: the service key's `change-feed-cursors` key.
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
    // ECB without padding enciphers each block on its own, so one cipher serves every cursor.
    this.cipher = createCipheriv('aes-256-ecb', blockKey, null).setAutoPadding(false);
    this.decipher = createDecipheriv('aes-256-ecb', blockKey, null).setAutoPadding(false);
  }

  /** `LOG_START`: before the first change. */
  encode(ukprn: string, position: LogPosition): string {
    return this.seal(ukprn, position);
  }

  /**
   * Null unless {@link encode} made `cursor` for `ukprn` with this key; never throws. The one place above the stores a number becomes a
   * {@link LogPosition}: the check value proves this service enciphered a position the store gave.
   */
  decode(ukprn: string, cursor: string): LogPosition | null {
    const position = this.open(ukprn, cursor);
    return position === null ? null : logPosition(position);
  }

  /** `value` a safe integer ≥ 0; `scope` a UKPRN, or a scope of its own. */
  seal(scope: string, value: number): string {
    const block = Buffer.alloc(BLOCK_BYTES);
    block.writeBigUInt64BE(BigInt(value));
    this.checkOf(scope).copy(block, 8);
    return Buffer.concat([Buffer.from([FORMAT]), this.cipher.update(block)]).toString('base64url');
  }

  /** Null unless {@link seal} made `cursor` for `scope` with this key (not altered, padded or of another length); never throws. */
  open(scope: string, cursor: string): number | null {
    if (cursor.length !== CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.length !== CURSOR_BYTES || bytes[0] !== FORMAT || bytes.toString('base64url') !== cursor) return null;
    const block = this.decipher.update(bytes.subarray(1));
    if (!block.subarray(8).equals(this.checkOf(scope))) return null;
    const position = block.readBigUInt64BE();
    return position <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(position) : null;
  }

  /** The first 8 bytes of HMAC-SHA256(check key, scope), cached. */
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
