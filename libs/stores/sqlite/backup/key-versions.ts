import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { wrappedKeyVersion } from '@app/personal-data';
import { Database } from '@app/sqlite';
import { WEBHOOK_STREAM_PREFIX } from '@app/webhooks/decider';
import { SealedSecrets } from '@app/webhooks/write';

/**
 * How many living data keys the key store copy `<dir>/keys.sqlite` holds wrapped under the service
 * key's `version`, and how many webhook endpoints of the log copy `<dir>/events.sqlite` have their
 * current secret (the last one stored) sealed under it, each read-only; a copy that is not there
 * counts none (`BackupFiles.keyVersionUse`). Throws when a copy cannot be read.
 */
export function keyVersionUse(dir: string, version: number): { dataKeys: number; secrets: number } {
  const keys = join(dir, 'keys.sqlite');
  const log = join(dir, 'events.sqlite');
  return {
    dataKeys: existsSync(keys) ? dataKeysUnder(keys, version) : 0,
    secrets: existsSync(log) ? secretsUnder(log, version) : 0,
  };
}

/** How many living data keys the key store copy `file` holds wrapped under `version`. */
function dataKeysUnder(file: string, version: number): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    let count = 0;
    const rows = db.prepare<[], [Buffer]>('SELECT wrapped FROM data_keys WHERE wrapped IS NOT NULL').raw(true);
    for (const [wrapped] of rows.iterate()) if (wrappedKeyVersion(wrapped) === version) count++;
    return count;
  } finally {
    db.close();
  }
}

/** How many webhook endpoints of the log copy `file` have their current secret (the last one stored) sealed under `version`. */
function secretsUnder(file: string, version: number): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const latest = new Map<string, string>();
    const rows = db
      .prepare<[number, string], [string, string]>('SELECT stream_id, data FROM events WHERE substr(stream_id, 1, ?) = ? ORDER BY position')
      .raw(true);
    for (const [streamId, text] of rows.iterate(WEBHOOK_STREAM_PREFIX.length, WEBHOOK_STREAM_PREFIX)) {
      const secret = (JSON.parse(text) as { secret?: unknown }).secret;
      if (typeof secret === 'string') latest.set(streamId, secret);
    }
    return [...latest.values()].filter((secret) => SealedSecrets.versionOf(secret) === version).length;
  } finally {
    db.close();
  }
}
