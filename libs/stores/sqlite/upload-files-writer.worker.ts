/**
 * The thread that writes the API's upload store on the embedded stores (docs/DESIGN.md "Uploads"):
 * each `put` and `delete` on its own connection to `uploads.sqlite` (`synchronous=FULL`,
 * `secure_delete`, the WAL truncated after a delete), so the API's thread never waits on a sync.
 * Started by `UploadFilesWriter` with the file as `workerData.file`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteUploadFiles } from './sqlite-upload-files';
import type { FromUploadWriter, ToUploadWriter } from './upload-files-writer';

const port = parentPort!;
const { file, forgetWithinMs } = workerData as { file: string; forgetWithinMs: number };
const store = new SqliteUploadFiles(file, { forgetWithinMs });
const post = (message: FromUploadWriter): void => port.postMessage(message);

port.on('message', (message: ToUploadWriter) => {
  if (message.type === 'close') {
    void store.close().finally(() => {
      post({ type: 'done', id: message.id });
      port.close();
    });
    return;
  }
  const done: Promise<{ deleted?: number }> =
    message.type === 'put'
      ? store.put(message.uploadId, message.part, message.bytes).then(() => ({}))
      : store.delete(message.uploadId).then((deleted) => ({ deleted }));
  done.then(
    (answer) => post({ ...answer, type: 'done', id: message.id }),
    (error: unknown) =>
      post({
        type: 'failed',
        id: message.id,
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
      }),
  );
});
