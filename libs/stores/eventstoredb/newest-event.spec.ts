/**
 * The newest matching event of `$all` read backwards in pages (newest-event.ts): the head position
 * and the stall check's matching head. The backwards read is a function over a literal log.
 */
import { END, type AllStreamResolvedEvent, type ReadPosition } from '@eventstore/db-client';
import { BackwardsRead, newestPosition } from './newest-event';
import { resolved } from './testing/test-events';

/** A backwards read over `log` (oldest first), inclusive of `from`, counting its calls. */
function backwardsOver(log: AllStreamResolvedEvent[]): BackwardsRead & { calls: number } {
  const read = async (from: ReadPosition, maxCount: number) => {
    read.calls++;
    const newestFirst = [...log].reverse();
    const start = from === END ? 0 : newestFirst.findIndex((r) => r.event!.position.commit <= (from as { commit: bigint }).commit);
    return start < 0 ? [] : newestFirst.slice(start, start + maxCount);
  };
  read.calls = 0;
  return read;
}

const any = () => true;
const trainees = (streamId: string) => streamId.startsWith('trainee-');

describe('newestPosition', () => {
  it('is the newest non-system event the predicate accepts', async () => {
    const log = [resolved(100), resolved(200, { streamId: 'registry-1' }), resolved(300, { streamId: '$stats', type: '$statsCollected' })];
    expect(await newestPosition(backwardsOver(log), any)).toBe(200);
    expect(await newestPosition(backwardsOver(log), trainees)).toBe(100);
  });

  it('reads page after page without counting a page boundary twice', async () => {
    const log = [resolved(10), ...Array.from({ length: 9 }, (_, i) => resolved(100 + i, { streamId: 'registry-1' }))];
    const read = backwardsOver(log);
    expect(await newestPosition(read, trainees, { pageSize: 4 })).toBe(10);
    expect(read.calls).toBe(3);
  });

  it('is 0 for a log without a matching event, and null when the bound is reached first', async () => {
    const log = Array.from({ length: 10 }, (_, i) => resolved(100 + i, { streamId: 'registry-1' }));
    expect(await newestPosition(backwardsOver(log), trainees, { pageSize: 4 })).toBe(0);
    expect(await newestPosition(backwardsOver([]), any)).toBe(0);
    expect(await newestPosition(backwardsOver([resolved(5), ...log]), trainees, { pageSize: 4, maxRecords: 8 })).toBeNull();
  });
});
