import { InvalidArgumentError, type Command } from 'commander';
import { chmodSync, createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { exportEvents, importEvents, ImportFileInvalid, ImportTargetNotEmpty, type AttachmentTransfer } from '@app/runtime/event-transfer';
import { logPosition, type LogPosition } from '@app/event-sourcing';
import { sealedSecretsOf } from '@app/runtime/process';
import { REGISTRATION_GUARD_STREAM_PREFIX } from '@app/trainees/decider';
import { UPLOAD_STREAM_PREFIX } from '@app/uploads/decider';
import { uploadKeyId, type UploadFiles } from '@app/uploads/write';
import { createInterface } from 'node:readline';
import type { Stores } from '@app/composition';
import { CliError, type CliContext } from '../cli-context';

/** An export file's mode: its owner's only (docs/operations.md "File permissions"). */
const EXPORT_FILE_MODE = 0o600;

/**
 * `events export [--since <position>] [--output <file>]` and `events import <file>`
 * (docs/operations.md "Export, import and moving to EventStoreDB"): the event log as JSON lines, one
 * event per line (`position`, `stream_id`, `revision`, `id`, `type`, `data`, `metadata`), for
 * auditors and for moving a deployment between stores (the embedded SQLite log into EventStoreDB:
 * export with `DATA_DIR` set, import with `EVENTSTORE_URL` and `MONGODB_URL` set).
 *
 * The export writes to stdout unless `--output` names a file, made (or narrowed, when it exists)
 * 0600: it holds sealed personal data and wrapped keys; stdout then carries the events and nothing
 * else (the summary goes to stderr). The import loads a file into an EMPTY event store
 * (a store holding events, or read models that already projected some, is refused: exit 1),
 * keeping every stream id, revision, event id, type, data and metadata, then projects every read
 * model from the imported log. Webhook secrets leave sealed with the service key (those stored
 * before sealing are sealed as they are written), and an import refuses secrets sealed with
 * another key (docs/operations.md "The service key").
 */
export function registerEventCommands(program: Command, ctx: CliContext): void {
  const events = program.command('events').description('the event log as JSON lines: export and import');
  events
    .command('export')
    .description('write the event log as JSON lines, in position order (stdout unless --output)')
    .option('--since <position>', 'only events after this global position (exclusive)', parsePosition)
    .option('--output <file>', 'write to this file instead of stdout')
    .action(async (opts: { since?: LogPosition; output?: string }) => {
      if (opts.output) {
        const file = opts.output;
        const count = await ctx.withStores(
          async (stores) => {
            const out = createWriteStream(file, { mode: EXPORT_FILE_MODE });
            try {
              await whenOpen(out);
              chmodSync(file, EXPORT_FILE_MODE);
              const n = await exportTo(out, stores, ctx, opts.since);
              await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
              return n;
            } catch (err) {
              out.destroy();
              if (isFileError(err)) throw new CliError(`Cannot write ${file}: ${(err as Error).message}`);
              throw err;
            }
          },
          { catchUp: false },
        );
        process.stdout.write(`${summary(count, opts.since)} to ${file}\n`);
        return;
      }
      // stdout carries the events and nothing else. A reader that stops early (`| head`) ends the export quietly.
      const ignore = (): void => undefined;
      process.stdout.on('error', ignore);
      try {
        const count = await ctx.withStores((stores) => exportTo(process.stdout, stores, ctx, opts.since), { catchUp: false });
        process.stderr.write(`${summary(count, opts.since)}\n`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
        throw err;
      } finally {
        process.stdout.off('error', ignore);
      }
    });
  events
    .command('import')
    .description('load an export into an empty event store, then project every read model from it')
    .argument('<file>', 'a file written by events export (JSON lines)')
    .action(async (file: string) => {
      if (!existsSync(file) || !statSync(file).isFile()) throw new CliError(`No such file: ${file}`);
      const result = await ctx.withStores(async (stores) => {
        const head = await stores.eventStore.headPosition();
        if (head > 0) throw new CliError(new ImportTargetNotEmpty(head).message);
        const checkpoint = await stores.readModel.checkpoint();
        if (checkpoint > 0) {
          throw new CliError(
            `The target read models are not empty (they projected the log up to position ${checkpoint}); import into an empty data dir or empty databases`,
          );
        }
        return importInto(stores, file, ctx);
      });
      // withStores has brought every read model up to date from the imported log before returning.
      process.stdout.write(
        `Imported ${result.count} ${result.count === 1 ? 'event' : 'events'} from ${file}; the log ends at position ${result.head} and the read models are rebuilt from it` +
          (result.guards > 0
            ? `; ${result.guards} events of duplicate guard streams came with it: on the embedded log, delete them with guards forget`
            : '') +
          '\n',
      );
    });
}

/** The webhook secrets' sealing under this deployment's service key, its methods bound. */
function secretsOf(ctx: CliContext): {
  exported: (type: string, data: unknown) => unknown;
  importRefusal: (type: string, data: unknown) => string | null;
} {
  const secrets = sealedSecretsOf(ctx.serviceKey());
  return { exported: (type, data) => secrets.exported(type, data), importRefusal: (type, data) => secrets.importRefusal(type, data) };
}

function summary(count: number, since: number | undefined): string {
  return `Exported ${count} ${count === 1 ? 'event' : 'events'}${since ? ` after position ${since}` : ''}`;
}

/**
 * `--since`: a position the operator read from the store (an earlier export's last `position`),
 * given back as the store gave it; an integer ≥ 0, else commander's InvalidArgumentError.
 */
function parsePosition(value: string): LogPosition {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('a position is an integer ≥ 0');
  return logPosition(Number(value));
}

/** Resolves once a file stream is open, rejects with its error (a missing directory, no permission). */
function whenOpen(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
}

function isFileError(err: unknown): boolean {
  return (
    err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && (err as NodeJS.ErrnoException).syscall !== undefined
  );
}

/** The data key of an upload's stream, which travels with it as a trainee's does (docs/DESIGN.md "Uploads"); null for another stream. */
function uploadKeyOf(streamId: string): string | null {
  return streamId.startsWith(UPLOAD_STREAM_PREFIX) ? uploadKeyId(streamId.slice(UPLOAD_STREAM_PREFIX.length)) : null;
}

/** An upload's parts kept outside the log (its file and row messages, sealed), which travel with its stream (docs/DESIGN.md "Uploads"). */
function uploadPartsOf(files: UploadFiles): AttachmentTransfer {
  const uploadOf = (streamId: string) => (streamId.startsWith(UPLOAD_STREAM_PREFIX) ? streamId.slice(UPLOAD_STREAM_PREFIX.length) : null);
  return {
    async exported(streamId) {
      const id = uploadOf(streamId);
      if (id === null) return [];
      const parts: { name: string; bytes: Uint8Array }[] = [];
      for (const name of await files.parts(id)) {
        const bytes = await files.get(id, name);
        if (bytes !== null) parts.push({ name, bytes });
      }
      return parts;
    },
    async imported(streamId, name, bytes) {
      const id = uploadOf(streamId);
      if (id === null) return `${streamId} keeps no part outside the log`;
      await files.put(id, name, bytes);
      return null;
    },
  };
}

/** Runs `fn` with the upload store of `stores` opened, closed after. */
async function withUploadFiles<T>(stores: Stores, ctx: CliContext, fn: (files: UploadFiles) => Promise<T>): Promise<T> {
  const files = await stores.uploadFiles();
  try {
    return await fn(files);
  } finally {
    await files.close();
  }
}

/**
 * Exports the log as stored to `out` (`exportEvents`): personal values sealed, each trainee's and
 * upload's data key wrapped before its stream, with an upload's parts kept outside the log (sealed),
 * webhook secrets sealed (docs/DESIGN.md "Personal data").
 */
function exportTo(out: Writable, stores: Stores, ctx: CliContext, since: LogPosition | undefined): Promise<number> {
  return withUploadFiles(stores, ctx, (files) =>
    exportEvents(stores.storedLog, out, {
      since,
      exported: secretsOf(ctx).exported,
      dataKeys: stores.personalData?.dataKeyTransfer(undefined, uploadKeyOf),
      attachments: uploadPartsOf(files),
    }),
  );
}

/**
 * Imports `file` into the empty `stores` (`importEvents`): personal data sealed as it goes, data keys
 * and webhook secrets checked against this deployment's service key. CliError for a bad file; the
 * counts otherwise (`guards`: events of the duplicate guard streams an older log holds, imported as
 * they are so that every later event keeps its position: `guards forget` deletes them in place,
 * docs/operations.md "Moving a log written before sealing").
 */
async function importInto(stores: Stores, file: string, ctx: CliContext): Promise<{ count: number; head: number; guards: number }> {
  let guards = 0;
  const guardLine = `"stream_id":"${REGISTRATION_GUARD_STREAM_PREFIX}`;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line.includes(guardLine)) guards++;
  const input = createReadStream(file);
  try {
    const count = await withUploadFiles(stores, ctx, (files) =>
      importEvents(stores.eventStore, input, {
        refusal: secretsOf(ctx).importRefusal,
        dataKeys: stores.personalData?.dataKeyTransfer(undefined, uploadKeyOf),
        attachments: uploadPartsOf(files),
      }),
    );
    return { count, head: await stores.eventStore.headPosition(), guards };
  } catch (err) {
    if (err instanceof ImportTargetNotEmpty) throw new CliError(err.message);
    if (err instanceof ImportFileInvalid)
      throw new CliError(`${file} ${err.message}; the target now holds the events before that line: empty it before importing again`);
    if (isFileError(err)) throw new CliError(`Cannot read ${file}: ${(err as Error).message}`);
    throw err;
  } finally {
    input.destroy();
  }
}
