import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The ledger's file name in `BACKUP_DIR` (docs/operations.md "Backups and restore"). */
export const LEDGER_FILE = 'erasure-ledger.jsonl';

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

/** A ledger file that is not one: the line and why. */
export class LedgerUnreadable extends Error {}

/**
 * Appends `entry` to the ledger `file` as one JSON line and syncs it to disk before returning, so
 * an erasure recorded here survives a crash before its key is destroyed (docs/operations.md
 * "Backups and restore"). The file is made readable by this user only (0600), its directory
 * (made when missing) 0700.
 */
export function appendToLedger(file: string, entry: LedgerEntry): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const line = `${JSON.stringify({ trainee_id: entry.trainee_id, erased_at: entry.erased_at, reason: entry.reason })}\n`;
  appendFileSync(file, line, { mode: 0o600 });
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The entries of the ledger `file`, one per trainee (its first erasure: a later line for the same
 * trainee only finished it), in the file's order; none when the file does not exist. Throws
 * {@link LedgerUnreadable} naming the first line that is not an entry.
 */
export function readLedger(file: string): LedgerEntry[] {
  if (!existsSync(file)) return [];
  const byTrainee = new Map<string, LedgerEntry>();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const entry = entryOf(line);
      if (entry === null) throw new LedgerUnreadable(`${file} line ${i + 1} is not an erasure ledger entry`);
      if (!byTrainee.has(entry.trainee_id)) byTrainee.set(entry.trainee_id, entry);
    });
  return [...byTrainee.values()];
}

/** The ledger of `backupDir` (a `BACKUP_DIR`): `<backupDir>/erasure-ledger.jsonl`. */
export function ledgerIn(backupDir: string): string {
  return join(backupDir, LEDGER_FILE);
}

function entryOf(line: string): LedgerEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { trainee_id, erased_at, reason } = value as Record<string, unknown>;
  if (typeof trainee_id !== 'string' || trainee_id === '' || typeof erased_at !== 'string' || typeof reason !== 'string') return null;
  if (Number.isNaN(Date.parse(erased_at))) return null;
  return { trainee_id, erased_at, reason };
}
