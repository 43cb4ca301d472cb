import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '@app/runtime/process';
import type { Stores } from '@app/composition';
import { TRAINEE_WRITE_PORTS, type TraineeWritePorts } from '@app/trainees/write';
import { TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/trainees/read';
import type { Trainee } from '@app/trainees/record';
import {
  purgeDueUploads,
  UploadLedger,
  UploadLists,
  UploadStates,
  UploadWorker,
  type UploadFiles,
  type UploadPorts,
} from '@app/uploads/write';
import { newResourceId } from '../composition/ids';
import { LOGGER, STORES } from '../composition/tokens';

/** How often the uploads due for purging are looked for: hourly. */
const PURGE_EVERY_MS = 3_600_000;

/** Injection token of the uploads' files and row messages (`UploadFiles`, opened by `Stores.uploadFiles`). */
export const UPLOAD_FILES = Symbol('UPLOAD_FILES');

/** The provider of {@link UPLOAD_FILES}: the store the configuration names, closed by {@link Uploads} at shutdown. */
export const UPLOAD_FILES_PROVIDER = {
  provide: UPLOAD_FILES,
  // Its writes (a part's sync, a purge's WAL truncation) in a thread of their own: never on the API's thread.
  useFactory: (stores: Stores): Promise<UploadFiles> => stores.uploadFiles({ writesInThread: true }),
  inject: [STORES],
};

/**
 * The uploads of this process: their ports (the trainee write path's, the uploads' data keys in the
 * trainees' key store, the store of their files, the providers' quotas, new upload ids) and the
 * background worker that checks received files and writes submitted ones, a slice of one provider's
 * upload at a time, and the hourly purge of uploads ended 30 days ago. At start the worker takes up
 * the uploads a stop left unfinished; at shutdown it finishes the slice in hand, before the stores
 * close (docs/DESIGN.md "Uploads").
 */
@Injectable()
export class Uploads implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly ports: UploadPorts;
  readonly worker: UploadWorker;
  private purging: NodeJS.Timeout | null = null;
  private purgeRun: Promise<number> | null = null;

  constructor(
    @Inject(TRAINEE_WRITE_PORTS) trainees: TraineeWritePorts,
    @Inject(TRAINEE_READ_MODEL) readModel: TraineeReadModel,
    @Inject(STORES) stores: Stores,
    @Inject(UPLOAD_FILES) private readonly files: UploadFiles,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const providerTrainees = async (ukprn: string): Promise<Trainee[]> => {
      const found = await Promise.all((await readModel.providerTraineeIds(ukprn)).map((id) => readModel.getTrainee(id)));
      return found.filter((t): t is Trainee => t !== null);
    };
    this.ports = {
      trainees,
      keys: stores.personalData?.keys ?? null,
      files,
      quotas: config.uploadQuotas,
      states: new UploadStates(),
      lists: new UploadLists(),
      ledger: new UploadLedger(),
      newUploadId: () => newResourceId(),
      providerTrainees,
    };
    // The upload id and the error's name only: a message may quote a cell of the file.
    this.worker = new UploadWorker(this.ports, (uploadId, err) =>
      logger.error({ uploadId, error: err instanceof Error ? err.name : typeof err }, 'upload work failed'),
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.worker.resume();
    this.purging = setInterval(() => void this.purge(new Date()), PURGE_EVERY_MS).unref();
    void this.purge(new Date());
  }

  /**
   * Purges the uploads due at `now` (30 days after they ended: their data keys destroyed), one run
   * at a time; a failure is logged by name and tried again at the next run. Returns how many.
   */
  async purge(now: Date): Promise<number> {
    const run = (this.purgeRun ?? Promise.resolve(0)).then(() => purgeDueUploads(this.ports, now));
    this.purgeRun = run.catch((err: unknown) => {
      this.logger.error({ error: err instanceof Error ? err.name : typeof err }, 'upload purge failed');
      return 0;
    });
    return this.purgeRun;
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.purging) clearInterval(this.purging);
    await this.purgeRun;
    await this.worker.stop();
    await this.files.close();
  }
}
