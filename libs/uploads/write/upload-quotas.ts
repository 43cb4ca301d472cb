/** A provider's upload quotas (docs/operations.md "Limits"), checked before a file is received; counted from the provider's list. */
import { DomainError } from '@app/event-sourcing';
import { providerUploads, type ListedUpload } from './upload-list';
import { readUpload } from './upload-stream';
import type { UploadPorts } from './upload.ports';

const DAY_MS = 86_400_000;

/** A check of the largest file takes seconds. */
export const PENDING_RETRY_AFTER_SECONDS = 30;

export type UploadQuota = 'pending' | 'daily_bytes';

/** 429: `message` names the limit; `retryAfterSeconds` whole, at least 1. */
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

function bytesText(bytes: number): string {
  return bytes % 1_048_576 === 0 ? `${bytes / 1_048_576}MB` : `${bytes.toLocaleString('en-GB')} bytes`;
}

/** The newest ones, as a provider's files are checked in the order received; counted up to `atMost`. */
async function pendingCount(ports: UploadPorts, newestFirst: readonly ListedUpload[], atMost: number): Promise<number> {
  let pending = 0;
  for (const entry of newestFirst) {
    if (entry.delisted) continue;
    const { state } = await readUpload(ports, entry.upload_id);
    // Listed but not received yet (another request in flight): not waiting.
    if (!state.exists) continue;
    if (state.status !== 'pending') break;
    if (++pending >= atMost) break;
  }
  return pending;
}

/** {@link UploadQuotaExceeded} past either quota; reads the provider's list and its newest uploads' states only. */
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
