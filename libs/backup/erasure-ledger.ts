import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deriveKey, type ServiceKeyMaterial } from '@app/runtime/process';
import { openPrivateDatabase } from '@app/sqlite';

/** The ledger's file name in `BACKUP_DIR` (docs/operations.md "Backups and restore"). */
export const LEDGER_FILE = 'erasure-ledger.jsonl';

/** The first item of the text a line's MAC is made over: names the rule. */
const LINE_FORMAT = 'erasure-ledger/1';

/** More than any line (a reason is at most 500 characters). */
const TAIL_BYTES = 64 * 1024;

/** `erased_at` ISO 8601 UTC; `reason` in the clear, as the log keeps it. No personal data. */
export interface LedgerEntry {
  trainee_id: string;
  erased_at: string;
  reason: string;
}

/**
 * One entry per trainee (its first erasure: a later line only finished it), in file order; `unauthenticated`, lines without a MAC
 * (written before lines were authenticated: taken on trust); `problems`, each line whose MAC does not hold.
 */
export interface LedgerRead {
  entries: LedgerEntry[];
  lines: number;
  unauthenticated: number;
  problems: string[];
}

/** A ledger file that is not one: the line and why. */
export class LedgerUnreadable extends Error {}

/** HKDF-SHA256 of the pinned `backup-manifests` key, so a ledger verifies across rotations (docs/operations.md "Across a rotation"). */
export function ledgerKey(serviceKey: ServiceKeyMaterial): Buffer {
  return Buffer.from(hkdfSync('sha256', deriveKey(serviceKey, 'backup-manifests'), Buffer.alloc(0), 'trainee-records/erasure-ledger', 32));
}

/** Hex HMAC-SHA256 over the entry and the MAC of the line before (null for none, or one without a MAC). */
function lineMac(key: Buffer, previous: string | null, entry: LedgerEntry): string {
  const text = JSON.stringify([LINE_FORMAT, previous, entry.trainee_id, entry.erased_at, entry.reason]);
  return createHmac('sha256', key).update(text).digest('hex');
}

/**
 * Appends `entry` with its MAC chained to the line before and syncs it, so an erasure is recorded before its key is destroyed
 * (docs/operations.md "Backups and restore"). Appends take turns by an exclusive SQLite lock on `<file>.lock`, gone with a dead process,
 * so two never chain to the same line. File 0600, directory 0700. Throws what fs or SQLite throw (`SQLITE_BUSY` past the wait).
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

/** Null when `file` has no line or its last has no MAC. */
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
 * Reads `file` (none when missing) and checks its chain: lines without a MAC count as older ones only before the first with one. A chain
 * cannot show lines taken from its end. {@link LedgerUnreadable} naming the first line that is not an entry.
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

/** An empty 0600 ledger unless one exists: a restore then finds one even before the first erasure, so a missing one was taken away. */
export function keepLedgerIn(backupDir: string): void {
  mkdirSync(backupDir, { recursive: true, mode: 0o700 });
  closeSync(openSync(ledgerIn(backupDir), 'a', 0o600));
}

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
