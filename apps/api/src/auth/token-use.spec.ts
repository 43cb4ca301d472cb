/**
 * TokenUse.today() formats the London date once per minute of its clock; the date must still turn
 * at London's midnight, in summer (BST, UTC+1) and winter (GMT) alike (docs/reference/API-FACTS.md §2.4).
 */
import type { Logger } from 'pino';
import type { EventStore } from '@app/event-sourcing';
import type { ProviderReadModel } from '@app/providers/read';
import { TokenUse } from './token-use';

function tokenUseAt(instants: string[]): string[] {
  const use = new TokenUse({} as EventStore, {} as ProviderReadModel, {} as Logger);
  return instants.map((iso) => {
    use.clock = () => new Date(iso);
    return use.today();
  });
}

describe('TokenUse.today', () => {
  it('turns at London midnight in summer time, whatever was asked earlier in the minute', () => {
    expect(
      tokenUseAt(['2026-07-01T22:59:00.000Z', '2026-07-01T22:59:59.999Z', '2026-07-01T23:00:00.000Z', '2026-07-01T23:00:30.000Z']),
    ).toEqual(['2026-07-01', '2026-07-01', '2026-07-02', '2026-07-02']);
  });

  it('turns at London midnight in winter time, and follows a clock moved back', () => {
    expect(tokenUseAt(['2026-12-31T23:59:59.000Z', '2027-01-01T00:00:00.000Z', '2026-12-31T23:59:01.000Z'])).toEqual([
      '2026-12-31',
      '2027-01-01',
      '2026-12-31',
    ]);
  });
});
