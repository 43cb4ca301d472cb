/**
 * The newest matching event of `$all` read backwards in pages (newest-event.ts): the head position
 * and the stall check's matching head. The backwards read is a function over a literal log.
 */
import { END, type AllStreamResolvedEvent, type ReadPosition } from '@eventstore/db-client';
import { logPosition } from '@app/event-sourcing';
import { BackwardsRead, newestHead, newestPosition } from './newest-event';
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

describe('newestHead', () => {
  const system = (position: number) => resolved(position, { streamId: '$epoch-information', type: '$epoch-information' });

  it('reads back only to the newest record an earlier read saw', async () => {
    const log = [resolved(10), ...Array.from({ length: 20 }, (_, i) => system(100 + i))];
    const first = await newestHead(backwardsOver(log), null, 4);
    expect(first).toEqual({ through: { commit: 119n, prepare: 119n }, head: 10 });

    const read = backwardsOver([...log, system(200), system(201)]);
    expect(await newestHead(read, first, 4)).toEqual({ through: { commit: 201n, prepare: 201n }, head: 10 });
    expect(read.calls).toBe(1);
    expect(await newestHead(backwardsOver([...log, resolved(300)]), first, 4)).toMatchObject({ head: 300 });
  });

  it('reads it all again when the newest record is older than the one seen (a log replaced), and a log of none is empty', async () => {
    const known = { through: { commit: 500n, prepare: 500n }, head: logPosition(450) };
    const read = backwardsOver([resolved(10), ...Array.from({ length: 9 }, (_, i) => system(100 + i))]);
    expect(await newestHead(read, known, 4)).toEqual({ through: { commit: 108n, prepare: 108n }, head: 10 });
    expect(await newestHead(backwardsOver([]), known, 4)).toEqual({ through: null, head: 0 });
  });
});
