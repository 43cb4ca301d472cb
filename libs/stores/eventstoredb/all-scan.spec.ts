/**
 * The forward scan of `$all` behind the EventStoreDB adapter's `readAll` (all-scan.ts): a scan that found none is remembered and
 * gone on from, unless the record it ended at is no longer there. The read is a function over a literal log.
 */
import { UnknownError, type AllStreamResolvedEvent, type ReadPosition } from '@eventstore/db-client';
import { logPosition } from '@app/event-sourcing';
import { EmptyScans, scanAll, type ForwardsRead } from './all-scan';
import { resolved } from './testing/test-events';

/** A forwards read over `log()`, inclusive of `from`, UnknownError where no record starts, recording each start. */
function forwardsOver(log: () => AllStreamResolvedEvent[]): ForwardsRead & { starts: ReadPosition[] } {
  const read = async (from: ReadPosition, maxCount: number) => {
    read.starts.push(from);
    const records = log();
    const start = typeof from === 'string' ? 0 : records.findIndex((r) => r.event!.position.commit === from.commit);
    if (start < 0) throw new UnknownError();
    return records.slice(start, start + maxCount);
  };
  read.starts = [] as ReadPosition[];
  return read;
}

const others = (from: number, count: number) => Array.from({ length: count }, (_, i) => resolved(from + i, { streamId: 'other-1' }));
const trainees = { streamPrefixes: ['trainee-'] };

describe('scanAll with EmptyScans', () => {
  it('goes on from the end of a scan that found none, and scans again when its last record is gone (a log replaced)', async () => {
    let log = [resolved(10), ...others(100, 50)];
    const read = forwardsOver(() => log);
    const scans = new EmptyScans();
    const from = { fromPosition: logPosition(10), filter: trainees };
    expect(await scanAll(read, from, 8, scans)).toEqual([]);
    read.starts.length = 0;
    expect(await scanAll(read, from, 8, scans)).toEqual([]);
    expect(read.starts).toEqual([{ commit: 149n, prepare: 149n }]);

    log = [resolved(10), ...others(100, 20), resolved(130)];
    read.starts.length = 0;
    expect((await scanAll(read, from, 8, scans)).map((e) => e.position)).toEqual([130]);
    expect(read.starts[0]).toEqual({ commit: 149n, prepare: 149n });
    expect(read.starts[1]).toEqual({ commit: 10n, prepare: 10n });
  });
});
