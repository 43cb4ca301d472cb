import type { Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import { isProjectionName, measureLag, PROJECTED_STREAMS, PROJECTION_NAMES } from '@app/runtime/projector';
import { rebuildProjection, type RebuildableStore } from '@app/runtime/rebuild';
import { CliError, type CliContext } from '../cli-context';

function rebuildable(store: unknown): RebuildableStore {
  const s = store as Partial<RebuildableStore>;
  if (typeof s.projectionInfo !== 'function' || typeof s.beginRebuild !== 'function') {
    throw new CliError('This read store does not support projection status and rebuild');
  }
  return s as RebuildableStore;
}

/**
 * `projections status [--json]` and `projections rebuild <name> [--keep-old]`: the projections'
 * versions and lag, and blue/green rebuilds (docs/operations.md "Projections: status and rebuilds";
 * docs/DESIGN.md "Projection versions and blue/green rebuilds"). Neither stops a running API or
 * projector. A rebuild first checks the embedded read store whole and never reads a damaged one:
 * when no other process has it open it is moved aside and every projection built afresh; else the
 * command is refused, saying to restart the service (docs/operations.md "Health").
 */
export function registerProjectionCommands(program: Command, ctx: CliContext): void {
  const projections = program.command('projections').description('read-model projections: versions, lag, rebuild');
  registerStatus(projections, ctx);
  registerRebuild(projections, ctx);
}

/**
 * `projections status [--json]`: each projection's versions, store, checkpoint, lag, documents and
 * state, as a table or as JSON (docs/operations.md "Projections: status and rebuilds", "Health").
 * Under the table, for a projection that lags, the next event the projector has to apply
 * (`next_event`: position, stream, revision, type): a projector that cannot apply an event stays
 * on it, and its log names the error. And, for a store where an older version of the service
 * skipped events (`skipped_events`, "parked"), that a rebuild applies them.
 */
function registerStatus(projections: Command, ctx: CliContext): void {
  projections
    .command('status')
    .description('each projection: code and stored version, store, checkpoint, lag (events, seconds), documents, state')
    .option('--json', 'print JSON instead of a table')
    .action(async (opts: { json?: boolean }) => {
      const rows = await ctx.withStores(
        async (stores) => {
          const infos = await rebuildable(stores.readModel).projectionInfo();
          const now = new Date();
          return Promise.all(
            infos.map(async (info) => {
              const lag = await measureLag(stores.eventStore, info.checkpoint, now);
              const [next] =
                lag.events > 0
                  ? await stores.eventStore.readAll({ fromPosition: info.checkpoint, maxCount: 1, filter: PROJECTED_STREAMS })
                  : [];
              return {
                ...info,
                lag_events: lag.events,
                lag_events_at_least: lag.atLeast,
                lag_seconds: Math.round(lag.seconds * 10) / 10,
                next_event: next
                  ? { position: next.position, stream_id: next.streamId, revision: next.streamRevision, type: next.type }
                  : null,
              };
            }),
          );
        },
        { catchUp: false },
      );
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const header = ['projection', 'code', 'stored', 'store', 'checkpoint', 'lag events', 'lag s', 'documents', 'state'];
      const lines = rows.map((r) => [
        r.name,
        `v${r.code_version}`,
        `v${r.version}`,
        r.store,
        String(r.checkpoint),
        `${r.lag_events}${r.lag_events_at_least ? '+' : ''}`,
        String(r.lag_seconds),
        String(r.documents),
        r.rebuilding ? `rebuilding into ${r.rebuilding}` : r.rebuild_needed ? 'rebuild needed' : 'ok',
      ]);
      const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
      for (const line of [header, ...lines])
        process.stdout.write(
          `${line
            .map((c, i) => c.padEnd(widths[i]))
            .join('  ')
            .trimEnd()}\n`,
        );
      for (const r of rows) printNotes(r);
    });
}

/** What an operator reads under the status table about one projection: the next event to apply, the events an older version skipped. */
function printNotes(r: {
  name: string;
  next_event: { position: number; stream_id: string; revision: number; type: string } | null;
  skipped_events: number;
}): void {
  const next = r.next_event;
  if (next) {
    process.stdout.write(
      `\n${r.name}: next event to apply: position ${next.position}  ${next.stream_id}@${next.revision}  ${next.type}\n` +
        `  (a projector that cannot apply it retries it and stays on it; its log names the error)\n`,
    );
  }
  if (r.skipped_events > 0) {
    process.stdout.write(
      `\n${r.name}: ${r.skipped_events} event(s) skipped ("parked") by an older version of the service: their trainees read as ` +
        `before them. Run \`projections rebuild ${r.name}\`, which applies every event again.\n`,
    );
  }
}

/** `projections rebuild <name> [--keep-old]`: blue/green rebuild with a progress bar; Ctrl-C stops between batches (resumable). */
function registerRebuild(projections: Command, ctx: CliContext): void {
  projections
    .command('rebuild')
    .description('rebuild a projection from the event log into a new store, then swap it in (resumable; Ctrl-C stops between batches)')
    .argument('<name>', `the projection: ${PROJECTION_NAMES.join(' or ')}`)
    .option('--keep-old', 'keep the old store after the swap')
    .action(async (name: string, opts: { keepOld?: boolean }) => {
      if (!isProjectionName(name)) throw new CliError(`No projection '${name}' (projections: ${PROJECTION_NAMES.join(', ')})`);
      let stop = false;
      const onSignal = () => {
        stop = true;
        process.stderr.write('\nStopping after this batch; run the same command again to resume.\n');
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const bar = new SingleBar(
        {
          format: `${name} {bar} {percentage}% | {done} events | {rate} events/s | ETA {eta_formatted}`,
          stream: process.stderr,
          noTTYOutput: !process.stderr.isTTY,
          notTTYSchedule: 2000,
        },
        Presets.shades_classic,
      );
      const started = Date.now();
      try {
        const outcome = await ctx.withStores(
          async (stores) =>
            // A damaged read store was moved aside and built afresh from the log: nothing is left to rebuild.
            stores.movedAside ??
            rebuildProjection(stores.eventStore, rebuildable(stores.readModel), name, {
              keepOld: opts.keepOld,
              shouldStop: () => stop,
              onProgress: ({ phase, done, position, head }) => {
                const rate = Math.round(done / Math.max(0.001, (Date.now() - started) / 1000));
                if (!bar.isActive) bar.start(Math.max(head, 1), 0, { done: 0, rate: 0 });
                // Built stream by stream, the events done (of at most `head`) tell how far it is.
                bar.update(Math.min(phase === 'streams' ? done : position, head), { done, rate });
              },
            }),
          { catchUp: false, checkReadModels: true },
        );
        bar.stop();
        process.stdout.write(`${rebuildSummary(name, outcome)}\n`);
      } finally {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
      }
    });
}

/** What a rebuild did (`rebuildProjection`). */
type RebuildOutcome = Awaited<ReturnType<typeof rebuildProjection>>;

/** The last line of `projections rebuild`: what was rebuilt (or where the damaged read store went), how fast, and the old store's fate. */
function rebuildSummary(name: string, outcome: RebuildOutcome | string): string {
  if (typeof outcome === 'string')
    return (
      `The read store was damaged: moved aside to ${outcome}; every projection was built afresh from the event log ` +
      `(nothing read from the damaged file), so ${name} needs no rebuild`
    );
  if (outcome.interrupted)
    return `Rebuild of ${name} into ${outcome.store} stopped after ${outcome.events} events; run it again to resume.`;
  const toSwap = outcome.seconds - outcome.dropSeconds;
  const rate = Math.round(outcome.events / Math.max(toSwap, 0.001));
  return (
    `Rebuilt ${name} into ${outcome.store}: ${outcome.events} events in ${toSwap.toFixed(1)} s (${rate} events/s); ` +
    `now serving ${outcome.store}; ` +
    (outcome.dropped ? `dropped ${outcome.previous} in slices in ${outcome.dropSeconds.toFixed(1)} s` : `kept ${outcome.previous}`)
  );
}
