/**
 * Uploaded rows' identity marks, hashed, so an erasure can tell whether an upload holds the erased trainee's row without keeping
 * values. A run of erasures parses each file once: a file never changes once received.
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

/** 8 bytes each, 64 MiB; a 1,000-row file makes about 10,000. Past it the least recently used upload's are dropped. */
export const ROW_MARKS_KEPT = 8_388_608;

/** Ascending; `unreadable` when the file cannot be read as its check read it. */
type Kept = Float64Array | 'unreadable';

function rowHashes(values: Readonly<Record<string, string>>, column: (field: string) => string, hash: (mark: string) => number): number[] {
  const person: IdentifyingValues = {};
  for (const field of IDENTIFYING_FIELDS) {
    const value = values[column(field)];
    if (value !== undefined && value !== '') person[field] = [value];
  }
  return [...identityMarks(person)].map(hash);
}

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
 * 48 bits of HMAC-SHA256 under a key random per run, so nothing outlives it or matches a precomputed table; a collision purges an extra
 * upload, which the rule accepts.
 */
export class UploadRowMarks {
  private readonly key = randomBytes(32);
  private readonly kept = new Map<string, Kept>();
  private count = 0;

  hash(mark: string): number {
    return createHmac('sha256', this.key).update(mark).digest().readUIntBE(0, 6);
  }

  /** True also when the file cannot be read as its check read it: nothing then shows it holds none. Parses it the first time only. */
  async holdsAny(ports: UploadStreamPorts, uploadId: string, state: UploadState, hashes: readonly number[]): Promise<boolean> {
    const kept = this.kept.get(uploadId) ?? (await this.read(ports, uploadId, state));
    this.kept.delete(uploadId);
    this.kept.set(uploadId, kept);
    return kept === 'unreadable' || hashes.some((h) => holdsValue(kept, h));
  }

  /** Purged. */
  forget(uploadId: string): void {
    const kept = this.kept.get(uploadId);
    if (kept instanceof Float64Array) this.count -= kept.length;
    this.kept.delete(uploadId);
  }

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

  /** Null when it cannot be. */
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
