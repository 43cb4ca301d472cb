/**
 * The thread that stores the new keys of the API's key store on the embedded stores (docs/DESIGN.md
 * "Personal data"): it runs each `reserve`, `ensure` and `writeReservation` on its own connection to `keys.sqlite`,
 * durably (`synchronous=FULL`), so the API's thread never waits on that sync. Started by `DataKeyWriter`
 * with the file as `workerData.file`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteDataKeyStore } from './sqlite-data-key-store';
import type { FromKeyWriter, ToKeyWriter } from './data-key-writer';

const port = parentPort!;
const store = new SqliteDataKeyStore((workerData as { file: string }).file);
const post = (message: FromKeyWriter): void => port.postMessage(message);

port.on('message', (message: ToKeyWriter) => {
  if (message.type === 'close') {
    void store.close().finally(() => {
      post({ type: 'done', id: message.id });
      port.close();
    });
    return;
  }
  const done: Promise<Partial<FromKeyWriter & { type: 'done' }>> =
    message.type === 'ensure'
      ? store
          .ensure(message.traineeId, Buffer.from(message.wrapped))
          .then((stored) => ({ stored: stored === 'erased' ? null : new Uint8Array(stored) }))
      : message.type === 'writeReservation'
        ? store.writeReservation(message.name, message.version, message.claims).then((written) => ({ written }))
        : store.reserve(message.entries.map((e) => ({ traineeId: e.traineeId, wrapped: Buffer.from(e.wrapped) }))).then(() => ({}));
  done.then(
    (answer) => post({ ...answer, type: 'done', id: message.id }),
    (error: unknown) => {
      const code = (error as { code?: unknown } | null)?.code;
      post({
        type: 'failed',
        id: message.id,
        message: error instanceof Error ? error.message : String(error),
        ...(typeof code === 'string' ? { code } : {}),
      });
    },
  );
});
