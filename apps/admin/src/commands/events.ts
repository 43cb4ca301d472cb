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

/** It holds sealed personal data and wrapped keys (docs/operations.md "File permissions"). */
const EXPORT_FILE_MODE = 0o600;

/**
 * `events export [--since <position>] [--output <file>]` and `events import <file>` (docs/operations.md "Export, import and moving to
 * EventStoreDB"): the log as JSON lines. The export goes to stdout (summary on stderr) or a 0600 file; the import needs an empty event
 * store and read models (else exit 1), then projects every read model. Webhook secrets leave sealed; another key's are refused.
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
      // stdout carries the events only; a reader that stops early (`| head`) ends the export quietly.
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
      process.stdout.write(
        `Imported ${result.count} ${result.count === 1 ? 'event' : 'events'} from ${file}; the log ends at position ${result.head} and the read models are rebuilt from it` +
          (result.guards > 0
            ? `; ${result.guards} events of duplicate guard streams came with it: on the embedded log, delete them with guards forget`
            : '') +
          '\n',
      );
    });
}

/** Its methods bound. */
function secretsOf(ctx: CliContext): {
  exported: (type: string, data: unknown) => unknown;
  importRefusal: (type: string, data: unknown) => string | null;
} {
  const secrets = sealedSecretsOf(ctx.serviceKey());
  return { exported: (type, data) => secrets.exported(type, data), importRefusal: (type, data) => secrets.importRefusal(type, data) };
}

function summary(count: number, since: LogPosition | undefined): string {
  return `Exported ${count} ${count === 1 ? 'event' : 'events'}${since ? ` after position ${since}` : ''}`;
}

/** An earlier export's last `position`, given back as the store gave it; an integer ≥ 0, else InvalidArgumentError. */
function parsePosition(value: string): LogPosition {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('a position is an integer ≥ 0');
  return logPosition(Number(value));
}

/** Rejects with its error (a missing directory, no permission). */
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

/** Travels with its stream as a trainee's key does; null for another stream. */
function uploadKeyOf(streamId: string): string | null {
  return streamId.startsWith(UPLOAD_STREAM_PREFIX) ? uploadKeyId(streamId.slice(UPLOAD_STREAM_PREFIX.length)) : null;
}

/** Sealed, they travel with the upload's stream (docs/DESIGN.md "Uploads"). */
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

async function withUploadFiles<T>(stores: Stores, ctx: CliContext, fn: (files: UploadFiles) => Promise<T>): Promise<T> {
  const files = await stores.uploadFiles();
  try {
    return await fn(files);
  } finally {
    await files.close();
  }
}

/** The log as stored, with each stream's wrapped data key and an upload's sealed parts before it, webhook secrets sealed. */
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
 * CliError for a bad file. `guards`: duplicate-guard events an older log holds, imported as they are so later positions hold
 * (docs/operations.md "Moving a log written before sealing").
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
