import type { Trainee } from '@app/trainees/record';
import type { TraineeWritePorts } from '@app/trainees/write';
import type { UploadFiles } from './upload-files.port';
import type { UploadLists } from './upload-list';
import type { UploadStates } from './upload-states';

/**
 * The data keys of uploads: one per upload, kept in the same key store as the trainees' and
 * wrapped the same way (docs/DESIGN.md "Personal data"), under the id `upload-<upload_id>` (no
 * trainee id holds a hyphen). `keyFor` makes and stores a key when the upload has none.
 */
export interface UploadKeys {
  keyFor(id: string): Promise<Buffer>;
  existingKey(id: string): Promise<Buffer | null | 'erased'>;
  destroy(id: string, at: Date): Promise<boolean>;
}

/**
 * What reading and appending to an upload's stream needs: the event store, the uploads' data keys,
 * the store of their files and messages, and optionally the process's {@link UploadStates} and
 * {@link UploadLists} (reads then take only what is new).
 */
export interface UploadStreamPorts {
  trainees: Pick<TraineeWritePorts, 'eventStore'>;
  keys: UploadKeys | null;
  files: UploadFiles;
  states?: UploadStates;
  lists?: UploadLists;
}

/**
 * A provider's upload quotas (docs/operations.md "Limits"): at most `pendingMax` uploads waiting
 * for their check, and at most `dailyBytes` bytes of files received in a UTC day.
 */
export interface UploadQuotas {
  pendingMax: number;
  dailyBytes: number;
}

/**
 * What the upload operations need: the trainee write path's ports (its event store, clock, ids,
 * read model and schools: an upload's rows are checked and written through them), the uploads'
 * data keys (null when personal data is stored in the clear, the sandbox's comparison only), the
 * providers' quotas, the source of new upload ids, and the provider's trainees as the read model holds them (for the
 * recommendations template).
 */
export interface UploadPorts extends UploadStreamPorts {
  trainees: TraineeWritePorts;
  keys: UploadKeys | null;
  quotas: UploadQuotas;
  newUploadId: () => string;
  providerTrainees: (ukprn: string) => Promise<Trainee[]>;
}

/** Injection token of {@link UploadPorts}. */
export const UPLOAD_PORTS = Symbol('UPLOAD_PORTS');
