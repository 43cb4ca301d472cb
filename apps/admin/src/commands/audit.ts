import type { Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import type { ChainFault } from '@app/event-sourcing';
import { rawEventStore } from '@app/personal-data';
import { verifyLog } from '@app/runtime/audit';
import { CliError, type CliContext } from '../cli-context';

/**
 * `audit verify [--json]` (docs/operations.md "Verifying the history"): recomputes the hash chain
 * of every stream of the log as stored (docs/DESIGN.md "Verifiable history") and reports each
 * altered, missing, reordered or inserted event by stream and revision, one line each on stdout,
 * then a summary; with a progress bar on stderr. `--json` writes one JSON document instead:
 * `{events, streams, seconds, faults: [{stream_id, revision, kind, detail}]}`. Exit 1 when any
 * fault was found.
 */
export function registerAuditCommands(program: Command, ctx: CliContext): void {
  const audit = program.command('audit').description("the history's proof: the hash chain of every stream");
  audit
    .command('verify')
    .description('recompute every event’s hash and report each altered, missing, reordered or inserted event; exit 1 on any')
    .option('--json', 'write the report as one JSON document on stdout')
    .action(async (opts: { json?: boolean }) => {
      const report = await ctx.withStores(
        async (stores) => {
          const store = rawEventStore(stores.eventStore);
          // The embedded store numbers positions without gaps: its head is its number of events.
          const total = store.readStoredStreams ? await store.headPosition() : 0;
          const bar = new SingleBar(
            {
              format: total > 0 ? 'verifying {bar} {value}/{total} events | ETA {eta_formatted}' : 'verifying {value} events',
              stream: process.stderr,
              noTTYOutput: !process.stderr.isTTY,
              notTTYSchedule: 2000,
            },
            Presets.shades_classic,
          );
          const faults: ChainFault[] = [];
          const started = performance.now();
          bar.start(total, 0);
          const totals = await verifyLog(store, {
            onFault: (f) => (opts.json ? faults.push(f) : process.stdout.write(`${faultLine(f)}\n`)),
            onProgress: (events) => bar.update(total > 0 ? Math.min(events, total) : events),
          });
          bar.stop();
          return { ...totals, seconds: (performance.now() - started) / 1000, faultList: faults };
        },
        { catchUp: false },
      );
      if (opts.json) {
        const faults = report.faultList.map((f) => ({ stream_id: f.streamId, revision: f.revision, kind: f.kind, detail: f.detail }));
        process.stdout.write(`${JSON.stringify({ events: report.events, streams: report.streams, seconds: report.seconds, faults })}\n`);
      } else {
        const rate = report.seconds > 0 ? Math.round(report.events / report.seconds) : report.events;
        process.stdout.write(
          `checked ${report.events} events in ${report.streams} streams in ${report.seconds.toFixed(2)} s (${rate} events/s): ` +
            `${report.faults === 0 ? 'every chain holds' : `${report.faults} fault(s)`}\n`,
        );
      }
      if (report.faults > 0) throw new CliError(`the history does not verify: ${report.faults} fault(s)`);
    });
}

/** One fault as a line of the report: where, what, why. */
function faultLine(f: ChainFault): string {
  return `${f.streamId} revision ${f.revision}: ${f.kind}: ${f.detail}`;
}
