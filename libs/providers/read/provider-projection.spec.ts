/**
 * The provider projection as a pure function: a provider document (or none) and a recorded event
 * of `provider-<ukprn>` give the document, with the provider's record and tokens as the read port
 * answers them (docs/STYLE.md "Projections as pure functions"; docs/DESIGN.md "Read models").
 */
import { logPosition, type RecordedEvent } from '@app/event-sourcing';
import { changedTokens, projectProvider, type ProviderDocument } from './provider-projection';

const UKPRN = '10000002';

function recorded(type: string, data: Record<string, unknown>, streamRevision: number, occurredAt = String(data.at)): RecordedEvent {
  return {
    id: `e-${streamRevision}`,
    type,
    data: { ukprn: UKPRN, ...data },
    metadata: { schemaVersion: 1, occurredAt },
    streamId: `provider-${UKPRN}`,
    streamRevision,
    position: logPosition(100 + streamRevision),
  };
}

const registered = recorded('ProviderRegistered', { name: 'Example SCITT', at: '2025-01-01T09:00:00.000Z' }, 0);
const issued = (tokenId: string, hash: string, revision: number, at: string) =>
  recorded('TokenIssued', { token_id: tokenId, token_hash: hash, at }, revision);
const revoked = (tokenId: string, revision: number, at: string) => recorded('TokenRevoked', { token_id: tokenId, at }, revision);

/** Folds events from no document, as a projector does one by one. */
function fold(events: RecordedEvent[], from: ProviderDocument | null = null): ProviderDocument | null {
  return events.reduce<ProviderDocument | null>((doc, e) => projectProvider(doc, e), from);
}

const TOKEN_1 = {
  token_id: 'tok-1',
  token_hash: 'a'.repeat(64),
  ukprn: UKPRN,
  status: 'active' as const,
  issued_at: '2025-01-02T09:00:00.000Z',
  revoked_at: null,
  expires_at: null,
  last_used_at: null,
};

describe('projectProvider', () => {
  it('creates the document from ProviderRegistered', () => {
    expect(projectProvider(null, registered)).toEqual({
      record: { ukprn: UKPRN, name: 'Example SCITT', created_at: '2025-01-01T09:00:00.000Z' },
      tokens: {},
      state: { exists: true, ukprn: UKPRN, name: 'Example SCITT', tokens: {} },
      revision: 0,
    });
  });

  it('adds an issued token, active, and revokes it, keeping the record’s created_at', () => {
    const afterIssue = fold([registered, issued('tok-1', 'a'.repeat(64), 1, '2025-01-02T09:00:00.000Z')]);
    expect(afterIssue?.tokens).toEqual({ 'tok-1': TOKEN_1 });
    expect(afterIssue?.revision).toBe(1);
    const afterRevoke = projectProvider(afterIssue, revoked('tok-1', 2, '2025-01-03T09:00:00.000Z'));
    expect(afterRevoke).toEqual({
      record: { ukprn: UKPRN, name: 'Example SCITT', created_at: '2025-01-01T09:00:00.000Z' },
      tokens: { 'tok-1': { ...TOKEN_1, status: 'revoked', revoked_at: '2025-01-03T09:00:00.000Z' } },
      state: { exists: true, ukprn: UKPRN, name: 'Example SCITT', tokens: { 'tok-1': 'revoked' } },
      revision: 2,
    });
    expect(afterIssue?.tokens['tok-1'].status).toBe('active');
  });

  it('keeps the first issue of a token id, and revoking a token it does not hold adds none', () => {
    const doc = fold([
      registered,
      issued('tok-1', 'a'.repeat(64), 1, '2025-01-02T09:00:00.000Z'),
      revoked('tok-1', 2, '2025-01-03T09:00:00.000Z'),
      issued('tok-1', 'b'.repeat(64), 3, '2025-01-04T09:00:00.000Z'),
      revoked('tok-unknown', 4, '2025-01-05T09:00:00.000Z'),
    ]);
    expect(doc?.tokens).toEqual({ 'tok-1': { ...TOKEN_1, status: 'revoked', revoked_at: '2025-01-03T09:00:00.000Z' } });
    expect(doc?.revision).toBe(4);
  });

  it('reads a v1 issue as never expiring, keeps a v2 expiry, and keeps the latest use of a held token', () => {
    const v2 = {
      ...recorded(
        'TokenIssued',
        { token_id: 'tok-2', token_hash: 'b'.repeat(64), expires_at: '2025-07-02', at: '2025-01-02T10:00:00.000Z' },
        2,
      ),
    };
    v2.metadata = { ...v2.metadata, schemaVersion: 2 };
    const used = (tokenId: string, on: string, revision: number) =>
      recorded('TokenUsed', { token_id: tokenId, on, at: `${on}T08:00:00.000Z` }, revision);
    const doc = fold([
      registered,
      issued('tok-1', 'a'.repeat(64), 1, '2025-01-02T09:00:00.000Z'),
      v2,
      used('tok-2', '2025-01-05', 3),
      used('tok-2', '2025-01-04', 4),
      used('tok-unknown', '2025-01-06', 5),
    ]);
    expect(doc?.tokens).toEqual({
      'tok-1': TOKEN_1,
      'tok-2': {
        ...TOKEN_1,
        token_id: 'tok-2',
        token_hash: 'b'.repeat(64),
        issued_at: '2025-01-02T10:00:00.000Z',
        expires_at: '2025-07-02',
        last_used_at: '2025-01-05T08:00:00.000Z',
      },
    });
    const before = fold([registered, issued('tok-1', 'a'.repeat(64), 1, '2025-01-02T09:00:00.000Z')]);
    expect(changedTokens(before, projectProvider(before, used('tok-1', '2025-01-03', 2))!).map((t) => t.last_used_at)).toEqual([
      '2025-01-03T08:00:00.000Z',
    ]);
  });

  it('takes created_at from the first event applied when that is not the registration', () => {
    const doc = projectProvider(
      null,
      recorded(
        'TokenIssued',
        { token_id: 'tok-9', token_hash: 'c'.repeat(64), at: '2025-02-01T00:00:00.000Z' },
        0,
        '2025-02-01T00:00:01.000Z',
      ),
    );
    expect(doc?.record).toEqual({ ukprn: UKPRN, name: '', created_at: '2025-02-01T00:00:01.000Z' });
  });

  it('skips an event at or below the document’s revision, so a redelivered issue cannot reactivate a revoked token', () => {
    const doc = fold([
      registered,
      issued('tok-1', 'a'.repeat(64), 1, '2025-01-02T09:00:00.000Z'),
      revoked('tok-1', 2, '2025-01-03T09:00:00.000Z'),
    ]);
    expect(projectProvider(doc, issued('tok-1', 'a'.repeat(64), 1, '2025-01-02T09:00:00.000Z'))).toBe(doc);
    expect(projectProvider(doc, revoked('tok-1', 2, '2025-01-03T09:00:00.000Z'))).toBe(doc);
    expect(projectProvider(doc, registered)).toBe(doc);
  });

  it('ignores event types it does not read', () => {
    const doc = projectProvider(null, registered);
    const trainee = recorded('TraineeRegistered', { trainee_id: 'T1', at: '2025-01-01T09:00:00.000Z' }, 5);
    const other = recorded('ProviderRenamed', { name: 'New', at: '2025-01-01T09:00:00.000Z' }, 6);
    expect(projectProvider(doc, trainee)).toBe(doc);
    expect(projectProvider(doc, other)).toBe(doc);
    expect(projectProvider(null, other)).toBeNull();
  });
});

describe('changedTokens', () => {
  it('lists the tokens a change added or whose status moved, nothing else', () => {
    const before = fold([
      registered,
      issued('tok-1', 'a'.repeat(64), 1, '2025-01-02T09:00:00.000Z'),
      issued('tok-2', 'b'.repeat(64), 2, '2025-01-02T10:00:00.000Z'),
    ]);
    const after = fold(
      [revoked('tok-2', 3, '2025-01-05T00:00:00.000Z'), issued('tok-3', 'c'.repeat(64), 4, '2025-01-06T00:00:00.000Z')],
      before,
    );
    expect(changedTokens(before, after!).map((t) => [t.token_id, t.status])).toEqual([
      ['tok-2', 'revoked'],
      ['tok-3', 'active'],
    ]);
    expect(changedTokens(null, before!).map((t) => t.token_id)).toEqual(['tok-1', 'tok-2']);
    expect(changedTokens(after, after!)).toEqual([]);
  });
});
