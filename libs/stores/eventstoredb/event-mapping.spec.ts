/**
 * Event conversion and batch validation of the EventStoreDB adapter (event-mapping.ts). No server:
 * client-side events are the plain objects the client builds (`jsonEvent`) or decodes.
 * Source: docs/DESIGN.md "The event store port" and "Event envelope", SQLite adapter's input rules.
 */
import { chainEvent, IdempotencyConflictError } from '@app/event-sourcing';
import { assertWritableStreamId, fromClientEvent, normaliseBatch, toChainedClientEvents } from './event-mapping';
import { PositionMappingError } from './positions';
import { clientEvent, portEvent } from './testing/test-events';

describe('assertWritableStreamId', () => {
  it('accepts ordinary stream names and refuses empty or $-prefixed ones', () => {
    expect(() => assertWritableStreamId('trainee-5f0c')).not.toThrow();
    expect(() => assertWritableStreamId('')).toThrow(TypeError);
    expect(() => assertWritableStreamId('$settings')).toThrow(/reserves/);
    expect(() => assertWritableStreamId(42 as never)).toThrow(TypeError);
  });
});

describe('normaliseBatch', () => {
  it('lower-cases ids and keeps type, data and metadata', () => {
    const e = portEvent('TraineeCreated', { a: [1, null] });
    const upper = { ...e, id: e.id.toUpperCase() };

    expect(normaliseBatch('trainee-1', [upper])).toEqual([{ ...e, id: e.id.toLowerCase() }]);
  });

  it('rejects a repeated id inside the batch, whatever its case, as an idempotency conflict', () => {
    const e = portEvent();
    const error = (() => {
      try {
        normaliseBatch('trainee-1', [e, { ...portEvent(), id: e.id.toUpperCase() }]);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect(error).toMatchObject({ streamId: 'trainee-1', eventId: e.id.toLowerCase() });
  });

  it.each([
    ['a non-UUID id', { id: 'not-a-uuid' }],
    ['an empty type', { type: '' }],
    ['a $-prefixed type', { type: '$metadata' }],
    ['undefined data', { data: undefined }],
    ['bigint data', { data: { n: 1n } }],
    ['array metadata', { metadata: [] }],
    ['null metadata', { metadata: null }],
  ])('rejects %s with a TypeError', (_, change) => {
    expect(() => normaliseBatch('trainee-1', [{ ...portEvent(), ...(change as object) }])).toThrow(TypeError);
  });

  it('rejects circular data and a non-array batch', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => normaliseBatch('trainee-1', [portEvent('A', circular)])).toThrow(TypeError);
    expect(() => normaliseBatch('trainee-1', 'events' as never)).toThrow(TypeError);
  });

  it('accepts an empty batch', () => {
    expect(normaliseBatch('trainee-1', [])).toEqual([]);
  });
});

describe('toChainedClientEvents', () => {
  const decoder = new TextDecoder();

  it('is a JSON event carrying the port id (the server recognises a retry), its metadata the chained JSON text as bytes', () => {
    const e = normaliseBatch('trainee-1', [portEvent('TraineeCreated', { first_names: 'Zoë' })])[0];
    const [client] = toChainedClientEvents('trainee-1', { revision: null, hash: null }, [e]);

    expect(client).toMatchObject({ id: e.id, contentType: 'application/json', type: 'TraineeCreated', data: { first_names: 'Zoë' } });
    expect(client.metadata?.constructor).toBe(Uint8Array);
    const expected = chainEvent(null, {
      streamId: 'trainee-1',
      revision: 0,
      id: e.id,
      type: 'TraineeCreated',
      data: JSON.stringify(e.data),
      metadata: JSON.stringify(e.metadata),
    });
    expect(decoder.decode(client.metadata as Uint8Array)).toBe(expected.metadata);
  });

  it('chains the batch to the head it is given, revision by revision, replacing chain keys the caller put in', () => {
    const head = { revision: 4, hash: 'a'.repeat(64) };
    const plain = portEvent('B', { n: 2 });
    const forged = { ...plain, metadata: { ...plain.metadata, hash: 'e'.repeat(64), previousHash: null } };
    const batch = normaliseBatch('trainee-1', [portEvent('A', { n: 1 }), forged]);
    const texts = toChainedClientEvents('trainee-1', head, batch).map((c) => decoder.decode(c.metadata as Uint8Array));

    const texts0 = {
      streamId: 'trainee-1',
      revision: 5,
      id: batch[0].id,
      type: 'A',
      data: '{"n":1}',
      metadata: JSON.stringify(batch[0].metadata),
    };
    const first = chainEvent(head.hash, texts0);
    const second = chainEvent(first.hash, {
      streamId: 'trainee-1',
      revision: 6,
      id: batch[1].id,
      type: 'B',
      data: '{"n":2}',
      metadata: JSON.stringify(plain.metadata),
    });
    expect(texts).toEqual([first.metadata, second.metadata]);
  });
});

describe('fromClientEvent', () => {
  it('maps a recorded event: lower-case id, revision and commit position as Numbers', () => {
    const recorded = clientEvent(8675, { id: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE', revision: 3n, streamId: 'trainee-9' });

    expect(fromClientEvent(recorded)).toEqual({
      id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
      type: 'TraineeCreated',
      data: { n: 8675 },
      metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' },
      streamId: 'trainee-9',
      streamRevision: 3,
      position: 8675,
    });
  });

  it('requires a position (stream reads carry one from server 22.6 on) that maps to one integer', () => {
    const withoutPosition = { ...clientEvent(10), position: undefined };
    expect(() => fromClientEvent(withoutPosition)).toThrow(/22\.6/);
    expect(() => fromClientEvent(clientEvent(10, { prepare: 4n }))).toThrow(PositionMappingError);
  });

  it('decodes byte metadata holding JSON, and gives {} for missing or non-JSON metadata', () => {
    const bytes = Uint8Array.from(Buffer.from(JSON.stringify({ schemaVersion: 2, occurredAt: 'x' })));
    expect(fromClientEvent(clientEvent(1, { metadata: bytes as never })).metadata).toEqual({ schemaVersion: 2, occurredAt: 'x' });
    expect(fromClientEvent(clientEvent(1, { metadata: undefined as never })).metadata).toEqual({});
    expect(fromClientEvent(clientEvent(1, { metadata: Uint8Array.from([0xff, 0x00]) as never })).metadata).toEqual({});
  });
});
