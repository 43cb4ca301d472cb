import { logPosition } from '@app/event-sourcing';
import { randomBytes } from 'node:crypto';
import { CursorCodec } from '@app/changes';
import { ListQueryInvalid } from '../../errors/errors';
import { HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX, HistoryCursors, toHistoryRequest } from './trainee-history.params';

const codec = new CursorCodec(randomBytes(32));
const mine = new HistoryCursors(codec, '10000001', 'T1');

/** The `errors` of the 422 `toHistoryRequest` throws for `raw`, or null when it does not throw. */
function refusal(raw: Record<string, unknown>, cursors = mine): Record<string, string[]> | null {
  try {
    toHistoryRequest(raw, cursors);
    return null;
  } catch (error) {
    if (!(error instanceof ListQueryInvalid)) throw error;
    return error.body().errors;
  }
}

describe('the paging query of a trainee history (docs/operations.md "Trainee history")', () => {
  it('starts at the first event with 100 entries by default, and reads a cursor back as the place it was made for', () => {
    expect(toHistoryRequest({}, mine)).toEqual({ from: { revision: 0, status: 'none' }, limit: HISTORY_LIMIT_DEFAULT });
    expect(toHistoryRequest({ after: '', limit: '' }, mine)).toEqual({ from: { revision: 0, status: 'none' }, limit: 100 });
    for (const place of [
      { revision: 0, status: 'none' as const },
      { revision: 100, status: 'submitted_for_trn' as const },
      { revision: 20_000, status: 'deferred' as const },
      { revision: 7, status: 'erased' as const },
    ]) {
      const after = mine.encode(place);
      expect(after).toMatch(/^[A-Za-z0-9_-]{23}$/);
      expect(toHistoryRequest({ after, limit: '1000' }, mine)).toEqual({ from: place, limit: HISTORY_LIMIT_MAX });
    }
    // The same place always gives the same cursor.
    expect(mine.encode({ revision: 5, status: 'draft' })).toBe(mine.encode({ revision: 5, status: 'draft' }));
  });

  it('refuses a cursor of another provider, of another trainee, of another case of the id, or of the change feed', () => {
    const place = { revision: 3, status: 'submitted_for_trn' as const };
    const theirs = new HistoryCursors(codec, '10000002', 'T1').encode(place);
    const otherTrainee = new HistoryCursors(codec, '10000001', 'T2').encode(place);
    const feed = codec.encode('10000001', logPosition(3 * 16 + 2));
    for (const after of [theirs, otherTrainee, feed]) {
      expect(mine.decode(after)).toBeNull();
      expect(refusal({ after })).toEqual({ after: [`${after} is not a valid cursor`] });
    }
    expect(new HistoryCursors(codec, '10000001', 't1').decode(mine.encode(place))).toBeNull();
    expect(mine.decode(mine.encode(place))).toEqual(place);
  });

  it('refuses a cursor that is altered, made up or of another key, and a value whose state slot names no state', () => {
    const after = mine.encode({ revision: 3, status: 'draft' });
    const altered = `${after.slice(0, 10)}${after[10] === 'A' ? 'B' : 'A'}${after.slice(11)}`;
    const otherKey = new HistoryCursors(new CursorCodec(randomBytes(32)), '10000001', 'T1').encode({ revision: 3, status: 'draft' });
    for (const bad of [altered, otherKey, 'x', `${after}=`, after.slice(1)]) expect(refusal({ after: bad })).toHaveProperty('after');
    const slot15 = codec.seal('history\u000010000001\u0000T1', 3 * 16 + 15);
    expect(mine.decode(slot15)).toBeNull();
  });

  it.each(['0', '1001', '-1', '1.5', 'ten', '10000000'])('refuses limit=%j in the list error shape', (limit) => {
    expect(refusal({ limit })).toEqual({ limit: [`must be an integer from 1 to ${HISTORY_LIMIT_MAX}`] });
  });

  it('names every bad parameter at once, and takes the last of a parameter sent twice', () => {
    expect(Object.keys(refusal({ after: 'nope', limit: '0' }) ?? {})).toEqual(['after', 'limit']);
    expect(toHistoryRequest({ limit: ['5000', '7'] }, mine).limit).toBe(7);
  });
});
