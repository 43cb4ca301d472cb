/**
 * Position and revision mapping of the EventStoreDB adapter (positions.ts): pure functions, no
 * server. Source: docs/DESIGN.md "The event store port"; the mapping and its reasons in positions.ts.
 */
import { ANY, NO_STREAM, START, STREAM_EXISTS } from '@eventstore/db-client';
import { LOG_START, logPosition } from '@app/event-sourcing';
import {
  assertPortPosition,
  expectedRevisionMatches,
  fromClientCurrentRevision,
  PositionMappingError,
  samePosition,
  toClientExpectedRevision,
  toPortPosition,
  toPortRevision,
  toReadPosition,
} from './positions';

const MAX = Number.MAX_SAFE_INTEGER;

describe('toPortPosition', () => {
  it('is the commit position when commit and prepare agree', () => {
    expect(toPortPosition({ commit: 1234n, prepare: 1234n })).toBe(1234);
    expect(toPortPosition({ commit: BigInt(MAX), prepare: BigInt(MAX) })).toBe(MAX);
  });

  it('refuses an event whose prepare position differs (explicit transaction): two events would share one integer', () => {
    expect(() => toPortPosition({ commit: 500n, prepare: 300n })).toThrow(PositionMappingError);
    expect(() => toPortPosition({ commit: 500n, prepare: 0n })).toThrow(/prepare position 0/);
  });

  it('refuses positions a Number cannot hold exactly, and negative ones', () => {
    const big = BigInt(MAX) + 1n;
    expect(() => toPortPosition({ commit: big, prepare: big })).toThrow(PositionMappingError);
    expect(() => toPortPosition({ commit: -1n, prepare: -1n })).toThrow(PositionMappingError);
    // 2^64 - 1 is what an unsigned "-1" looks like on the wire.
    const wire = 2n ** 64n - 1n;
    expect(() => toPortPosition({ commit: wire, prepare: wire })).toThrow(PositionMappingError);
  });
});

describe('toReadPosition', () => {
  it('maps 0 (before everything) to START', () => {
    expect(toReadPosition(LOG_START)).toBe(START);
  });

  it('maps a checkpoint p to the position {p, p} of the event at p, the inverse of toPortPosition', () => {
    expect(toReadPosition(logPosition(42))).toEqual({ commit: 42n, prepare: 42n });
    const position = toReadPosition(logPosition(987654321));
    expect(typeof position).toBe('object');
    if (typeof position === 'object') expect(toPortPosition(position)).toBe(987654321);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, MAX + 1])('rejects %p with a RangeError', (bad) => {
    expect(() => toReadPosition(logPosition(bad))).toThrow(RangeError);
  });
});

describe('samePosition', () => {
  it('compares both parts', () => {
    expect(samePosition({ commit: 5n, prepare: 5n }, { commit: 5n, prepare: 5n })).toBe(true);
    expect(samePosition({ commit: 5n, prepare: 5n }, { commit: 5n, prepare: 4n })).toBe(false);
    expect(samePosition({ commit: 5n, prepare: 5n }, { commit: 6n, prepare: 5n })).toBe(false);
  });
});

describe('toClientExpectedRevision', () => {
  it("maps the port's expectations onto the client's constants and bigint revisions", () => {
    expect(toClientExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toClientExpectedRevision('stream_exists')).toBe(STREAM_EXISTS);
    expect(toClientExpectedRevision('any')).toBe(ANY);
    expect(toClientExpectedRevision(0)).toBe(0n);
    expect(toClientExpectedRevision(17)).toBe(17n);
  });

  it.each([-1, 2.5, Number.NaN, 'latest' as never, null as never])('rejects %p with a RangeError', (bad) => {
    expect(() => toClientExpectedRevision(bad)).toThrow(RangeError);
  });
});

describe('fromClientCurrentRevision', () => {
  it("maps a missing stream ('no_stream', or -1 from older servers) to 'no_stream' and a revision to a Number", () => {
    expect(fromClientCurrentRevision(NO_STREAM)).toBe('no_stream');
    expect(fromClientCurrentRevision(-1n)).toBe('no_stream');
    expect(fromClientCurrentRevision(0n)).toBe(0);
    expect(fromClientCurrentRevision(41n)).toBe(41);
  });

  it('refuses a revision beyond 2^53', () => {
    expect(() => fromClientCurrentRevision(2n ** 60n)).toThrow(PositionMappingError);
    expect(() => toPortRevision(-2n)).toThrow(PositionMappingError);
  });
});

describe('expectedRevisionMatches (empty batches are checked by the adapter itself)', () => {
  it.each([
    ['any', 'no_stream', true],
    ['any', 3, true],
    ['no_stream', 'no_stream', true],
    ['no_stream', 0, false],
    ['stream_exists', 'no_stream', false],
    ['stream_exists', 0, true],
    [2, 2, true],
    [2, 1, false],
    [0, 'no_stream', false],
  ] as const)('expected %p, actual %p → %p', (expected, actual, result) => {
    expect(expectedRevisionMatches(expected, actual)).toBe(result);
  });
});

describe('assertPortPosition', () => {
  it('names the argument in its error', () => {
    expect(() => assertPortPosition(-3, 'fromRevision')).toThrow(/fromRevision must be an integer ≥ 0, got -3/);
    expect(() => assertPortPosition(0)).not.toThrow();
  });
});
