/**
 * A provider's upload quotas (docs/operations.md "Limits"), checked before a file is received, so
 * that one provider's uploads cannot fill the background's queue or the upload store: at most
 * `pendingMax` uploads waiting for their check, and at most `dailyBytes` bytes received in a UTC
 * day (counted from the provider's list, upload-list.ts: files received, refused ones not counted).
 * Past either, the upload is refused with {@link UploadQuotaExceeded} (429, `Retry-After`).
 */
import { DomainError } from '@app/event-sourcing';
import { providerUploads, type ListedUpload } from './upload-list';
import { readUpload } from './upload-stream';
import type { UploadPorts } from './upload.ports';

const DAY_MS = 86_400_000;

/** When a provider with `pendingMax` uploads waiting may try again, in s: a check of the largest file takes seconds. */
export const PENDING_RETRY_AFTER_SECONDS = 30;

/** Which quota an upload is refused by. */
export type UploadQuota = 'pending' | 'daily_bytes';

/**
 * An upload refused by one of its provider's quotas (429): `message` names the limit, and
 * `retryAfterSeconds` says when to try again (whole seconds, at least 1).
 */
export class UploadQuotaExceeded extends DomainError {
  readonly kind = 'UploadQuotaExceeded';
  constructor(
    readonly quota: UploadQuota,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** "10MB" for whole mebibytes, else "N bytes". */
function bytesText(bytes: number): string {
  return bytes % 1_048_576 === 0 ? `${bytes / 1_048_576}MB` : `${bytes.toLocaleString('en-GB')} bytes`;
}

/**
 * How many of `newestFirst` wait for their check: the newest ones, since a provider's files are
 * checked in the order received; counted up to `atMost`.
 */
async function pendingCount(ports: UploadPorts, newestFirst: readonly ListedUpload[], atMost: number): Promise<number> {
  let pending = 0;
  for (const entry of newestFirst) {
    if (entry.delisted) continue;
    const { state } = await readUpload(ports, entry.upload_id);
    // Listed but not received yet (another request of the provider in flight): not waiting.
    if (!state.exists) continue;
    if (state.status !== 'pending') break;
    if (++pending >= atMost) break;
  }
  return pending;
}

/**
 * Refuses a file of `byteCount` bytes for `ukprn` at `now` with {@link UploadQuotaExceeded} when the
 * provider has `ports.quotas.pendingMax` uploads waiting for their check, or when the file would take
 * its bytes received since midnight UTC past `ports.quotas.dailyBytes`. Reads the provider's list and
 * the states of its newest uploads only.
 */
export async function checkUploadQuotas(ports: UploadPorts, ukprn: string, byteCount: number, now: Date): Promise<void> {
  const { pendingMax, dailyBytes } = ports.quotas;
  const entries = await providerUploads(ports, ukprn);
  const dayStart = now.getTime() - (now.getTime() % DAY_MS);
  let today = 0;
  for (let i = entries.length - 1; i >= 0 && Date.parse(entries[i].at) >= dayStart; i--) today += entries[i].byte_count;
  if (today + byteCount > dailyBytes) {
    throw new UploadQuotaExceeded(
      'daily_bytes',
      `The selected file would take the files uploaded today past ${bytesText(dailyBytes)}, the most a provider may upload in a day ` +
        '(UTC): upload it after midnight UTC',
      Math.max(1, Math.ceil((dayStart + DAY_MS - now.getTime()) / 1000)),
    );
  }
  if ((await pendingCount(ports, [...entries].reverse(), pendingMax)) >= pendingMax) {
    throw new UploadQuotaExceeded(
      'pending',
      `${pendingMax} ${pendingMax === 1 ? 'file is' : 'files are'} still being checked, the most a provider may have waiting: ` +
        'upload this file once one of them is checked',
      PENDING_RETRY_AFTER_SECONDS,
    );
  }
}
