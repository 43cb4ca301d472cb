import type { Trainee } from '@app/trainees/record';
import type { TraineeWritePorts } from '@app/trainees/write';
import type { UploadFiles } from './upload-files.port';
import type { UploadLedger, UploadLists } from './upload-list';
import type { UploadStates } from './upload-states';

/** One data key per upload, in the trainees' key store under `upload-<upload_id>` (no trainee id holds a hyphen). */
export interface UploadKeys {
  keyFor(id: string): Promise<Buffer>;
  existingKey(id: string): Promise<Buffer | null | 'erased'>;
  destroy(id: string, at: Date): Promise<boolean>;
}

/** `states`, `lists` and `ledger`, when given, let reads take only what is new. */
export interface UploadStreamPorts {
  trainees: Pick<TraineeWritePorts, 'eventStore'>;
  keys: UploadKeys | null;
  files: UploadFiles;
  states?: UploadStates;
  lists?: UploadLists;
  ledger?: UploadLedger;
}

/** docs/operations.md "Limits": uploads waiting for their check, bytes received in a UTC day. */
export interface UploadQuotas {
  pendingMax: number;
  dailyBytes: number;
}

/** `keys` null when personal data is stored in the clear (the sandbox's comparison only). */
export interface UploadPorts extends UploadStreamPorts {
  trainees: TraineeWritePorts;
  keys: UploadKeys | null;
  quotas: UploadQuotas;
  newUploadId: () => string;
  providerTrainees: (ukprn: string) => Promise<Trainee[]>;
}

export const UPLOAD_PORTS = Symbol('UPLOAD_PORTS');
