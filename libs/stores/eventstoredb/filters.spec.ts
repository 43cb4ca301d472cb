/**
 * Filters of the EventStoreDB adapter (filters.ts): the port's exact rule, system events, and the
 * server-side filter a subscription sends. The server filter is built with the client's own helpers;
 * its regexes are checked here with JavaScript's engine, whose semantics for escaped literals,
 * `^`, `(?:…)`, `|` and a final `$` agree with .NET's (except `$` before a final newline, which the
 * client-side check covers). Source: docs/DESIGN.md "The event store port", port doc of `EventFilter`.
 */
import fc from 'fast-check';
import { EVENT_TYPE, STREAM_NAME, type Filter } from '@eventstore/db-client';
import {
  buildServerFilter,
  escapeRegex,
  exactEventTypeRegex,
  isSystemEvent,
  matchesEventFilter,
  normaliseFilter,
  NormalisedFilter,
  streamPrefixRegex,
} from './filters';

function regexOf(filter: Filter): RegExp {
  if (!('regex' in filter)) throw new Error('expected a regex filter');
  return new RegExp(filter.regex);
}

describe('normaliseFilter', () => {
  it('treats an absent filter and empty lists as no filter', () => {
    expect(normaliseFilter(undefined)).toBeNull();
    expect(normaliseFilter({})).toBeNull();
    expect(normaliseFilter({ streamPrefixes: [], eventTypes: [] })).toBeNull();
  });

  it('keeps the lists, filling an absent one with []', () => {
    expect(normaliseFilter({ streamPrefixes: ['trainee-'] })).toEqual({ streamPrefixes: ['trainee-'], eventTypes: [] });
    expect(normaliseFilter({ eventTypes: ['A'] })).toEqual({ streamPrefixes: [], eventTypes: ['A'] });
  });

  it('rejects lists that are not arrays of strings', () => {
    expect(() => normaliseFilter({ streamPrefixes: 'trainee-' as never })).toThrow(TypeError);
    expect(() => normaliseFilter({ eventTypes: [1] as never })).toThrow(TypeError);
  });
});

describe('matchesEventFilter (the port rule)', () => {
  const filter: NormalisedFilter = { streamPrefixes: ['trainee-', 'a_b%'], eventTypes: ['TraineeCreated'] };

  it('admits everything without a filter', () => {
    expect(matchesEventFilter(null, 'anything', 'Any')).toBe(true);
  });

  it('ORs stream prefixes and event types', () => {
    expect(matchesEventFilter(filter, 'trainee-1', 'Other')).toBe(true);
    expect(matchesEventFilter(filter, 'provider-1', 'TraineeCreated')).toBe(true);
    expect(matchesEventFilter(filter, 'provider-1', 'Other')).toBe(false);
  });

  it('matches prefixes literally and case-sensitively, types exactly', () => {
    expect(matchesEventFilter(filter, 'a_b%x', 'Other')).toBe(true);
    expect(matchesEventFilter(filter, 'aXbYx', 'Other')).toBe(false);
    expect(matchesEventFilter(filter, 'TRAINEE-1', 'Other')).toBe(false);
    expect(matchesEventFilter(filter, 'provider-1', 'TraineeCreatedV2')).toBe(false);
    expect(matchesEventFilter(filter, 'provider-1', 'traineecreated')).toBe(false);
  });
});

describe('isSystemEvent', () => {
  it('is true for $-prefixed streams or types', () => {
    expect(isSystemEvent('$settings', 'Settings')).toBe(true);
    expect(isSystemEvent('$$trainee-1', '$metadata')).toBe(true);
    expect(isSystemEvent('$ce-trainee', '$>')).toBe(true);
    expect(isSystemEvent('trainee-1', '$metadata')).toBe(true);
    expect(isSystemEvent('trainee-1', 'TraineeCreated')).toBe(false);
    expect(isSystemEvent('trainee-$1', 'Type$')).toBe(false);
  });
});

describe('regexes sent to the server', () => {
  it('escape every metacharacter so prefixes and types are literals', () => {
    const special = 'a.b*c+d?e^f$g|h(i)j[k]l{m}n\\o';
    expect(new RegExp(`^${escapeRegex(special)}$`).test(special)).toBe(true);
    expect(new RegExp(`^${escapeRegex('a.b')}$`).test('aXb')).toBe(false);
  });

  it('match stream ids by literal prefix', () => {
    const regex = new RegExp(streamPrefixRegex(['trainee-', 'p.(1)']));
    expect(regex.test('trainee-123')).toBe(true);
    expect(regex.test('p.(1)-x')).toBe(true);
    expect(regex.test('pX(1)-x')).toBe(false);
    expect(regex.test('xtrainee-1')).toBe(false);
    expect(regex.test('TRAINEE-1')).toBe(false);
  });

  it('match event types exactly, not by prefix', () => {
    const regex = new RegExp(exactEventTypeRegex(['TraineeCreated', 'Degree.Added']));
    expect(regex.test('TraineeCreated')).toBe(true);
    expect(regex.test('Degree.Added')).toBe(true);
    expect(regex.test('TraineeCreatedV2')).toBe(false);
    expect(regex.test('XTraineeCreated')).toBe(false);
    expect(regex.test('DegreeXAdded')).toBe(false);
  });
});

describe('buildServerFilter', () => {
  const checkpointReached = (): void => undefined;

  it('filters on stream names by prefix regex when only stream prefixes are given', () => {
    const filter = buildServerFilter({ streamPrefixes: ['trainee-'], eventTypes: [] });
    expect(filter.filterOn).toBe(STREAM_NAME);
    expect(regexOf(filter).test('trainee-1')).toBe(true);
    expect(regexOf(filter).test('provider-1')).toBe(false);
  });

  it('filters on event types by exact regex when only event types are given', () => {
    const filter = buildServerFilter({ streamPrefixes: [], eventTypes: ['A', 'B'] });
    expect(filter.filterOn).toBe(EVENT_TYPE);
    expect(regexOf(filter).test('A')).toBe(true);
    expect(regexOf(filter).test('AB')).toBe(false);
  });

  it('only excludes system events when both kinds are given (the server cannot OR them) or none', () => {
    for (const f of [{ streamPrefixes: ['trainee-'], eventTypes: ['A'] }, null]) {
      const filter = buildServerFilter(f);
      expect(filter.filterOn).toBe(EVENT_TYPE);
      expect(regexOf(filter).test('$metadata')).toBe(false);
      expect(regexOf(filter).test('A')).toBe(true);
      expect(regexOf(filter).test('Unrelated')).toBe(true);
      expect(regexOf(filter).test('')).toBe(true);
    }
  });

  it('passes the checkpoint settings through', () => {
    for (const f of [{ streamPrefixes: ['p'], eventTypes: [] }, { streamPrefixes: [], eventTypes: ['T'] }, null]) {
      const filter = buildServerFilter(f, { checkpointInterval: 5, checkpointReached });
      expect(filter.checkpointInterval).toBe(5);
      expect(filter.checkpointReached).toBe(checkpointReached);
    }
  });

  it('never drops an event the port filter admits (property)', () => {
    const name = fc.string({ maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(name, { maxLength: 3 }),
        fc.array(name, { maxLength: 3 }),
        name,
        name,
        (streamPrefixes, eventTypes, streamId, type) => {
          const port = normaliseFilter({ streamPrefixes, eventTypes });
          const server = buildServerFilter(port);
          if (isSystemEvent(streamId, type) || !matchesEventFilter(port, streamId, type)) return;
          const subject = server.filterOn === STREAM_NAME ? streamId : type;
          expect(regexOf(server).test(subject)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
