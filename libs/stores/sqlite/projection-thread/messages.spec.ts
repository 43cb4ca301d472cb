import { StreamChainBrokenError } from '@app/event-sourcing';
import { carry, holdSealedValues, revive, SEALED_VALUES_HELD, type SealedValuesShared } from './messages';

describe('errors across threads', () => {
  it("a broken chain comes back as the port's error, with its stream and revision (the API counts it for the alert)", () => {
    const back = revive(structuredClone(carry(new StreamChainBrokenError('trainee-1', 0))));
    expect(back).toBeInstanceOf(StreamChainBrokenError);
    expect(back).toMatchObject({ streamId: 'trainee-1', revision: 0, message: new StreamChainBrokenError('trainee-1', 0).message });
  });
});

describe('holdSealedValues: sealed values waiting for a message to carry them are bounded (docs/DESIGN.md "Personal data")', () => {
  it('adds values in order, each beside its event id', () => {
    const held: SealedValuesShared = { eventIds: ['E1'], values: ['["a"]'] };
    holdSealedValues(held, ['E2', 'E3'], ['["b"]', '["c"]']);
    expect(held).toEqual({ eventIds: ['E1', 'E2', 'E3'], values: ['["a"]', '["b"]', '["c"]'] });
  });

  it(`keeps the newest ${SEALED_VALUES_HELD}, dropping the oldest first`, () => {
    const held: SealedValuesShared = { eventIds: [], values: [] };
    const ids = Array.from({ length: SEALED_VALUES_HELD + 3 }, (_, i) => `E${i}`);
    holdSealedValues(held, ids.slice(0, 10), ids.slice(0, 10));
    holdSealedValues(held, ids.slice(10), ids.slice(10));
    expect(held.eventIds).toHaveLength(SEALED_VALUES_HELD);
    expect(held.eventIds[0]).toBe('E3');
    expect(held.eventIds.at(-1)).toBe(ids.at(-1));
    expect(held.values).toEqual(held.eventIds);
  });
});
