/**
 * What the rows of uploaded files hold, for erasures (docs/DESIGN.md "Personal data", "Erasure"):
 * each row's marks (`identityMarks`, libs/trainees/decider: the rule that takes a row to be a given
 * person's), hashed, so that an erasure tells whether an upload holds a row of the erased trainee
 * without keeping the rows' values. A run of erasures (`admin retention apply` erases many trainees
 * in a row) opens and parses each file once and keeps its hashes for the run: a file never changes
 * once received, and a purged upload's hashes are dropped.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { SealedValuesNotOpened } from '@app/personal-data';
import { IDENTIFYING_FIELDS, identityMarks, type IdentifyingValues } from '@app/trainees/decider';
import { implementedVersion, versionFieldName } from '@app/trainees/record';
import { UploadFileRefused, type UploadTable } from '@app/uploads/csv';
import type { UploadState } from '@app/uploads/decider';
import { readUploadTable } from './upload-rows';
import { readUploadFile, UploadPartUnreadable } from './upload-stream';
import type { UploadStreamPorts } from './upload.ports';

/**
 * Hashes kept in all, past which the least recently used upload's are dropped (read again if asked
 * for): 8 bytes each, 64 MiB. A file of 1,000 rows makes about 10,000.
 */
export const ROW_MARKS_KEPT = 8_388_608;

/** An upload's hashes, ascending; `unreadable` when its file cannot be read as its check read it. */
type Kept = Float64Array | 'unreadable';

/** The hashes (`hash`) of the marks of one row's `values`, each field read from its `column`. */
function rowHashes(values: Readonly<Record<string, string>>, column: (field: string) => string, hash: (mark: string) => number): number[] {
  const person: IdentifyingValues = {};
  for (const field of IDENTIFYING_FIELDS) {
    const value = values[column(field)];
    if (value !== undefined && value !== '') person[field] = [value];
  }
  return [...identityMarks(person)].map(hash);
}

/** True when the ascending `sorted` holds `value`. */
function holdsValue(sorted: Float64Array, value: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] === value) return true;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

/**
 * The hashed marks of uploads' rows, kept for a run of erasures. Hashes are 48 bits of
 * HMAC-SHA256 under a random key of the run (nothing kept outlives it, and nothing precomputed
 * matches them); two marks sharing one purge an extra upload, which the rule accepts.
 */
export class UploadRowMarks {
  private readonly key = randomBytes(32);
  private readonly kept = new Map<string, Kept>();
  private count = 0;

  /** The hash of one mark: 48 bits of its HMAC, as a number. */
  hash(mark: string): number {
    return createHmac('sha256', this.key).update(mark).digest().readUIntBE(0, 6);
  }

  /**
   * True when a row of the upload `uploadId` (in `state`, received and not purged) has one of the
   * marks `hashes` ({@link hash}), or its file cannot be read as its check read it (lost, altered,
   * refused by this release's reading, or of a version no longer served): nothing then shows it
   * holds none. Opens and parses its file the first time only. Throws what the stores throw.
   */
  async holdsAny(ports: UploadStreamPorts, uploadId: string, state: UploadState, hashes: readonly number[]): Promise<boolean> {
    const kept = this.kept.get(uploadId) ?? (await this.read(ports, uploadId, state));
    this.kept.delete(uploadId);
    this.kept.set(uploadId, kept);
    return kept === 'unreadable' || hashes.some((h) => holdsValue(kept, h));
  }

  /** Drops what is kept of `uploadId` (purged). */
  forget(uploadId: string): void {
    const kept = this.kept.get(uploadId);
    if (kept instanceof Float64Array) this.count -= kept.length;
    this.kept.delete(uploadId);
  }

  /** Reads the upload's file into its rows' hashes and keeps them, dropping the least recently used past the bound. */
  private async read(ports: UploadStreamPorts, uploadId: string, state: UploadState): Promise<Kept> {
    const table = await this.table(ports, uploadId, state);
    let kept: Kept = 'unreadable';
    if (table !== null) {
      const version = implementedVersion(state.api_version ?? '');
      const column = (field: string) => (version === null ? field : (versionFieldName(field, version) ?? field));
      const hashes = table.records.flatMap((r) => (r.blank ? [] : rowHashes(r.values, column, (m) => this.hash(m))));
      kept = Float64Array.from(new Set(hashes)).sort();
      this.count += kept.length;
    }
    this.kept.set(uploadId, kept);
    while (this.count > ROW_MARKS_KEPT) {
      const oldest = this.kept.keys().next().value!;
      if (oldest === uploadId) break;
      this.forget(oldest);
    }
    return kept;
  }

  /** The upload's file read as its check reads it; null when it cannot be. */
  private async table(ports: UploadStreamPorts, uploadId: string, state: UploadState): Promise<UploadTable | null> {
    const version = implementedVersion(state.api_version ?? '');
    if (version === null || state.kind === null) return null;
    try {
      const file = await readUploadFile(ports, uploadId, state);
      return file === null ? null : await readUploadTable(state.kind, file, version);
    } catch (error) {
      if (error instanceof UploadPartUnreadable || error instanceof SealedValuesNotOpened || error instanceof UploadFileRefused)
        return null;
      throw error;
    }
  }
}
