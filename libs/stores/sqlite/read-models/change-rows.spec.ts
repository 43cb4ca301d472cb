import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '@app/sqlite';
import type { StoredChange } from '@app/changes';
import { logPosition } from '@app/event-sourcing';
import { TRAINEE_FIELDS } from '@app/trainees/answers';
import { ChangeFieldCodes, changeRowOf, type ChangeText } from './change-rows';

const TABLE = 'trainee_change_fields_t';

function change(overrides: Partial<StoredChange> = {}): StoredChange {
  return {
    position: logPosition(42),
    ukprn: '10000001',
    trainee_id: '11DBi9JkuUhQ6j2kGbkYSBJC',
    type: 'PlacementAdded',
    occurred_at: '2024-08-20T16:29:26.371Z',
    record: 'placement',
    item_id: 'W8MXzgGabgezPuhGMwN2MWuB',
    changed_fields: ['placement_id', 'urn', 'name', 'address', 'created_at'],
    state: 'draft',
    trn: null,
    ...overrides,
  };
}

describe('the change feed rows', () => {
  let dir: string;
  let db: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'change-rows-'));
    db = new Database(join(dir, 'rm.sqlite'));
    db.pragma('journal_mode = WAL');
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const stored = (codes: ChangeFieldCodes, c: StoredChange): ChangeText => [c.position, c.ukprn, codes.encode(changeRowOf(c))];

  it('read back as the change written, for each kind of record and with nulls and a TRN', () => {
    const codes = new ChangeFieldCodes(db, TABLE);
    const written = [
      change(),
      change({
        type: 'TrnIssued',
        record: 'trainee',
        item_id: null,
        changed_fields: ['trn', 'state'],
        state: 'trn_received',
        trn: '1234567',
      }),
      change({ type: 'DegreeRemoved', record: 'degree', changed_fields: [] }),
    ];
    for (const c of written) expect(codes.decode(stored(codes, c))).toEqual(c);
  });

  it("names a registration's fields by codes: less than a third of the change as a JSON object", () => {
    const codes = new ChangeFieldCodes(db, TABLE);
    const registration = change({
      type: 'TraineeRegistered',
      record: 'trainee',
      item_id: null,
      changed_fields: TRAINEE_FIELDS.map((f) => f.name).filter((name) => name !== 'updated_at'),
    });
    expect(registration.changed_fields.length).toBeGreaterThan(40);
    const text = stored(codes, registration)[2];
    expect(text.length).toBeLessThan(JSON.stringify(registration).length / 3);
    expect(codes.decode([registration.position, registration.ukprn, text])).toEqual(registration);
  });

  it('keeps codes once given: another connection adds names, and a connection that cached fewer reads its rows', () => {
    const first = new ChangeFieldCodes(db, TABLE);
    const before = stored(first, change());
    const other = new Database(join(dir, 'rm.sqlite'));
    try {
      const second = new ChangeFieldCodes(other, TABLE);
      const later = change({ changed_fields: ['urn', 'postcode', 'school_id'] });
      const written = stored(second, later);
      expect(first.decode(written)).toEqual(later);
      expect(second.decode(before)).toEqual(change());
    } finally {
      other.close();
    }
  });

  it('reads a row written as the whole change in a JSON object, and refuses a code its table does not hold', () => {
    const codes = new ChangeFieldCodes(db, TABLE);
    const c = change();
    expect(codes.decode([c.position, c.ukprn, JSON.stringify(c)])).toEqual(c);
    const unknown = stored(codes, c)[2].replace(/\[\d+,/, '[999,');
    expect(() => codes.decode([c.position, c.ukprn, unknown])).toThrow(/field code 999/);
  });
});
