import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deriveKey, type ServiceKeyMaterial } from '@app/runtime/process';
import { openPrivateDatabase } from '@app/sqlite';

/** The ledger's file name in `BACKUP_DIR` (docs/operations.md "Backups and restore"). */
export const LEDGER_FILE = 'erasure-ledger.jsonl';

/** Names the rule a line's MAC is made by (the first item of the text it is made over). */
const LINE_FORMAT = 'erasure-ledger/1';

/** Bytes read from the ledger's end to find its last line: more than any line (a reason is at most 500 characters). */
const TAIL_BYTES = 64 * 1024;

/**
 * One erasure as the ledger keeps it: the trainee's id, when it was erased (ISO 8601, UTC) and why
 * (the reason given to the erasure, kept in the clear as the log keeps it: never who the trainee
 * is). No personal data.
 */
export interface LedgerEntry {
  trainee_id: string;
  erased_at: string;
  reason: string;
}

/**
 * What {@link readLedger} found: the entries, one per trainee (its first erasure: a later line for
 * the same trainee only finished it), in the file's order; how many lines the file holds; how many
 * carry no MAC (written before lines were authenticated: what they say is taken on trust); and
 * each line whose MAC does not hold, as a sentence (none: every authenticated line is as written,
 * in its place).
 */
export interface LedgerRead {
  entries: LedgerEntry[];
  lines: number;
  unauthenticated: number;
  problems: string[];
}

/** A ledger file that is not one: the line and why. */
export class LedgerUnreadable extends Error {}

/**
 * The key of the ledger's MACs: HKDF-SHA256 of the service keyring's `backup-manifests` key, a
 * pinned purpose (derived from version 1, kept in the keyring when version 1 is retired), so a
 * ledger keeps verifying across rotations and retirements, as the manifests do (docs/operations.md
 * "Across a rotation"). 32 bytes.
 */
export function ledgerKey(serviceKey: ServiceKeyMaterial): Buffer {
  return Buffer.from(hkdfSync('sha256', deriveKey(serviceKey, 'backup-manifests'), Buffer.alloc(0), 'trainee-records/erasure-ledger', 32));
}

/** A line's MAC (hex HMAC-SHA256 under `key`): over the entry and the MAC of the line before it (null for none, or one without a MAC). */
function lineMac(key: Buffer, previous: string | null, entry: LedgerEntry): string {
  const text = JSON.stringify([LINE_FORMAT, previous, entry.trainee_id, entry.erased_at, entry.reason]);
  return createHmac('sha256', key).update(text).digest('hex');
}

/**
 * Appends `entry` to the ledger `file` as one JSON line with its MAC under `key` ({@link ledgerKey}),
 * chained to the line before it, and syncs it to disk before returning, so an erasure recorded here
 * survives a crash before its key is destroyed (docs/operations.md "Backups and restore"). Appends
 * take turns by an exclusive SQLite lock on `<file>.lock` (the process's lock wait), so two
 * erasures at once never chain to the same line; the lock goes with a process that dies. The file
 * is made readable by this user only (0600), its directory (made when missing) 0700. Throws what
 * the file system or SQLite throw (`SQLITE_BUSY` past the wait).
 */
export function appendToLedger(file: string, entry: LedgerEntry, key: Buffer): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const lock = openPrivateDatabase(`${file}.lock`);
  try {
    lock.exec('BEGIN EXCLUSIVE');
    try {
      const fields = { trainee_id: entry.trainee_id, erased_at: entry.erased_at, reason: entry.reason };
      appendFileSync(file, `${JSON.stringify({ ...fields, mac: lineMac(key, lastMac(file), fields) })}\n`, { mode: 0o600 });
      const fd = openSync(file, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } finally {
      lock.exec('COMMIT');
    }
  } finally {
    lock.close();
  }
}

/** The MAC of the last line of `file`; null when it has no line, or its last line has none. */
function lastMac(file: string): string | null {
  if (!existsSync(file)) return null;
  const size = statSync(file).size;
  const length = Math.min(size, TAIL_BYTES);
  const tail = Buffer.alloc(length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, tail, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  const lines = tail
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) return null;
  try {
    const mac = (JSON.parse(lines[lines.length - 1]) as { mac?: unknown }).mac;
    return typeof mac === 'string' ? mac : null;
  } catch {
    return null;
  }
}

/**
 * Reads the ledger `file` and checks its chain under `key` ({@link LedgerRead}; none when the file
 * does not exist). Lines without a MAC are taken as older ones only before the first line with
 * one; after it, such a line is a problem. A line whose MAC does not hold was changed, or a line
 * before it deleted, moved or put in (or it was written under another service key). A chain
 * cannot show lines taken from its end. Throws {@link LedgerUnreadable} naming the first line
 * that is not an entry.
 */
export function readLedger(file: string, key: Buffer): LedgerRead {
  const read: LedgerRead = { entries: [], lines: 0, unauthenticated: 0, problems: [] };
  if (!existsSync(file)) return read;
  const byTrainee = new Map<string, LedgerEntry>();
  let previous: string | null = null;
  let chained = false;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      read.lines++;
      const parsed = lineOf(line);
      if (parsed === null) throw new LedgerUnreadable(`${file} line ${i + 1} is not an erasure ledger entry`);
      const { entry, mac } = parsed;
      if (mac === null) {
        if (chained) read.problems.push(`${file} line ${i + 1} has no MAC after lines with one: it was put in by hand`);
        else read.unauthenticated++;
      } else {
        chained = true;
        if (!macHolds(lineMac(key, previous, entry), mac))
          read.problems.push(
            `${file} line ${i + 1}: its MAC does not hold (the line was changed, or a line before it deleted, moved or put in; ` +
              'or it was written under another service key)',
          );
      }
      previous = mac;
      if (!byTrainee.has(entry.trainee_id)) byTrainee.set(entry.trainee_id, entry);
    });
  read.entries = [...byTrainee.values()];
  return read;
}

function macHolds(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Makes the ledger of `backupDir` (a `BACKUP_DIR`) empty (0600) when there is none, and leaves one
 * that exists as it is: a backup taken there finds a ledger at its restore even before the first
 * erasure, so a ledger missing then was taken away. Throws what the file system throws.
 */
export function keepLedgerIn(backupDir: string): void {
  mkdirSync(backupDir, { recursive: true, mode: 0o700 });
  closeSync(openSync(ledgerIn(backupDir), 'a', 0o600));
}

/** The ledger of `backupDir` (a `BACKUP_DIR`): `<backupDir>/erasure-ledger.jsonl`. */
export function ledgerIn(backupDir: string): string {
  return join(backupDir, LEDGER_FILE);
}

function lineOf(line: string): { entry: LedgerEntry; mac: string | null } | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { trainee_id, erased_at, reason, mac } = value as Record<string, unknown>;
  if (typeof trainee_id !== 'string' || trainee_id === '' || typeof erased_at !== 'string' || typeof reason !== 'string') return null;
  if (Number.isNaN(Date.parse(erased_at))) return null;
  if (mac !== undefined && (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac))) return null;
  return { entry: { trainee_id, erased_at, reason }, mac: mac ?? null };
}
