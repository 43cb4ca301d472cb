import { newEventId, toEventData } from '@app/event-sourcing';
import { identityMarks, traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration, traineeUpdated, trnIssued } from '@app/trainees/decider/testing/trainee-events';
import { SqliteEventStore } from '@app/stores/sqlite';
import { eraseTrainee, erasureSummary, type ErasurePorts } from './erase-trainee';

describe('eraseTrainee: the uploads holding the trainee’s rows (docs/DESIGN.md "Personal data")', () => {
  let store: SqliteEventStore;
  let calls: string[];
  let marksSeen: ReadonlySet<string>[];
  let uploadsFail: boolean;
  let ports: ErasurePorts;

  beforeEach(async () => {
    store = new SqliteEventStore({ filename: ':memory:' });
    const history = [
      ...exampleRegistration({ details: { last_name: 'Doe', date_of_birth: '1990-01-01', email: 'john.doe@example.com' } }),
      traineeUpdated({ changes: { last_name: 'Roe' } }),
      trnIssued({ trn: '7654321' }),
    ];
    await store.appendToStream(traineeStreamId('T1'), toEventData(history, { occurredAt: '2026-01-05T09:00:00.000Z' }, newEventId));
    calls = [];
    marksSeen = [];
    uploadsFail = false;
    ports = {
      eventStore: store,
      resolveId: async () => null,
      destroyKey: async () => (calls.push('destroyKey'), true),
      forgetProjected: async () => void calls.push('forgetProjected'),
      forgetAnswers: async () => 0,
      forgetDeliveries: async () => 0,
      forgetUploads: async (_id, _ukprn, marks) => {
        calls.push('forgetUploads');
        marksSeen.push(marks);
        if (uploadsFail) throw new Error('the upload store is busy');
        return { purged: 2, purgedWhenSubmitted: 1 };
      },
      clock: () => new Date('2026-05-01T00:00:00.000Z'),
    };
  });
  afterEach(() => store.close());

  it('purges them before the key is destroyed, by every value the stream held', async () => {
    const erasure = await eraseTrainee(ports, 'T1', 'Request DPO-1', 'dpo');
    expect(calls.slice(0, 2)).toEqual(['forgetUploads', 'destroyKey']);
    const expected = identityMarks({
      trainee_id: ['T1'],
      last_name: ['Doe', 'Roe'],
      date_of_birth: ['1990-01-01'],
      email: ['john.doe@example.com'],
      trn: ['7654321'],
    });
    for (const mark of expected) expect(marksSeen[0].has(mark)).toBe(true);
    expect(erasure).toMatchObject({ uploadsPurged: 2, uploadsPurgedWhenSubmitted: 1 });
    expect(erasureSummary(erasure)).toMatch(/; 2 uploads purged, 1 more as their submit ends$/);
  });

  it('keeps the key when the uploads could not be purged, so that running it again finds them by the same values', async () => {
    uploadsFail = true;
    await expect(eraseTrainee(ports, 'T1', 'Request DPO-1', 'dpo')).rejects.toThrow('the upload store is busy');
    expect(calls).toEqual(['forgetUploads']);
    uploadsFail = false;
    const again = await eraseTrainee(ports, 'T1', 'Request DPO-1', 'dpo');
    expect(again.erasedNow).toBe(false);
    expect(calls).toEqual(['forgetUploads', 'forgetUploads', 'destroyKey', 'forgetProjected']);
    expect([...marksSeen[1]].sort()).toEqual([...marksSeen[0]].sort());
  });
});
