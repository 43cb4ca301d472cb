import { newEventId, toEventData } from '@app/event-sourcing';
import { SqliteEventStore, SqliteUploadFiles } from '@app/stores/sqlite';
import { writeContext } from '@app/trainees/write';
import { listUploads } from './upload-answers';
import {
  listUpload,
  markLedger,
  providerUploads,
  unsettledEntries,
  UploadLedger,
  UploadLists,
  UPLOAD_LEDGER_MARK_EVERY,
  UPLOAD_LEDGER_MARK_STREAM,
  UPLOAD_LEDGER_STREAM,
  UPLOAD_LIST_STREAM_PREFIX,
} from './upload-list';
import { purgeDueUploads } from './upload-purge';
import { runUploadCommand } from './upload-stream';
import type { UploadPorts } from './upload.ports';

const UKPRN = '10000001';
const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString();
const ctx = (s: number) => writeContext({ ukprn: UKPRN, tokenId: null, apiVersion: 'v2026.1', requestId: null }, at(s));
const caller = { ukprn: UKPRN, tokenId: null, apiVersion: 'v2026.1', requestId: null };

describe("a provider's list of uploads", () => {
  let store: SqliteEventStore;
  let files: SqliteUploadFiles;
  let ports: UploadPorts;

  beforeEach(() => {
    store = new SqliteEventStore({ filename: ':memory:' });
    files = new SqliteUploadFiles(':memory:');
    ports = { trainees: { eventStore: store }, keys: null, files, lists: new UploadLists() } as unknown as UploadPorts;
  });
  afterEach(async () => {
    store.close();
    await files.close();
  });

  /** An upload received (of `kind`), listed as this version lists it, or as an older one did (no kind, no size). */
  async function received(id: string, s: number, kind: 'add_trainees' | 'recommend_for_award', older = false): Promise<void> {
    if (older) {
      const [listed] = toEventData([{ type: 'UploadListed', data: { upload_id: id, at: at(s) } }], ctx(s), newEventId);
      const v1 = { ...listed, metadata: { ...listed.metadata, schemaVersion: 1 } };
      await store.appendToStream(UPLOAD_LEDGER_STREAM, [v1]);
      await store.appendToStream(UPLOAD_LIST_STREAM_PREFIX + UKPRN, [{ ...v1, id: newEventId() }]);
    } else await listUpload(ports, UKPRN, id, { kind, byteCount: 10 * s }, ctx(s));
    await runUploadCommand(
      ports,
      id,
      ctx(s),
      () => ({
        type: 'ReceiveUpload',
        upload_id: id,
        ukprn: UKPRN,
        kind,
        api_version: 'v2026.1',
        file_name: null,
        byte_count: 10,
        sha256: 'c'.repeat(64),
        now: at(s),
      }),
      true,
    );
  }

  it('pages the uploads of a kind newest first, entries of an older log included, purged ones left out', async () => {
    await received('gone', 1, 'add_trainees', true);
    await runUploadCommand(ports, 'gone', ctx(1), () => ({ type: 'CancelUpload', upload_id: 'gone', now: at(1) }));
    await received('old1', 10, 'add_trainees', true);
    await received('old2', 20, 'recommend_for_award', true);
    await received('new1', 30, 'add_trainees');
    await received('new2', 40, 'add_trainees');
    expect((await listUploads(ports, caller, 'add_trainees', 1, 25)).totalCount).toBe(4);
    // Only `gone` is due (30 days after its last event): purged, delisted, its parts deleted.
    expect(await purgeDueUploads(ports, new Date(Date.parse(at(5)) + 30 * 86_400_000))).toBe(1);
    const page = await listUploads(ports, caller, 'add_trainees', 1, 2);
    expect(page.items.map((u) => u.upload_id)).toEqual(['new2', 'new1']);
    expect(page.totalCount).toBe(3);
    expect((await listUploads(ports, caller, 'add_trainees', 2, 2)).items.map((u) => u.upload_id)).toEqual(['old1']);
    expect((await listUploads(ports, caller, 'recommend_for_award', 1, 25)).items.map((u) => u.upload_id)).toEqual(['old2']);
    // What an older entry did not say is learnt once and kept with it.
    expect((await providerUploads(ports, UKPRN)).map((e) => [e.upload_id, e.kind, e.byte_count, e.delisted])).toEqual([
      ['gone', 'add_trainees', 0, true],
      ['old1', 'add_trainees', 0, false],
      ['old2', 'recommend_for_award', 0, false],
      ['new1', 'add_trainees', 300, false],
      ['new2', 'add_trainees', 400, false],
    ]);
  });

  it('reads the ledger on from where it stopped, and a start from the latest mark, which never passes an unsettled upload', async () => {
    const read: string[] = [];
    const counted = Object.create(store) as SqliteEventStore;
    counted.readStream = async (streamId, options) => {
      const events = await store.readStream(streamId, options);
      for (const e of events) read.push(`${streamId}@${e.streamRevision}`);
      return events;
    };
    const ledgerPorts = (ledger: UploadLedger) => ({ trainees: { eventStore: counted }, ledger });
    const entry = (type: string, id: string) => ({ type, data: { upload_id: id, at: at(1) } });
    // One upload left unsettled first, then more than a mark's worth listed and settled.
    await store.appendToStream(UPLOAD_LEDGER_STREAM, toEventData([entry('UploadListed', 'kept')], ctx(1), newEventId));
    const ids = Array.from({ length: UPLOAD_LEDGER_MARK_EVERY / 2 + 1 }, (_, i) => `u${i}`);
    const churn = [...ids.map((id) => entry('UploadListed', id)), ...ids.map((id) => entry('UploadSettled', id))];
    await store.appendToStream(UPLOAD_LEDGER_STREAM, toEventData(churn, ctx(2), newEventId));

    const ledger = new UploadLedger();
    expect((await unsettledEntries(ledgerPorts(ledger))).map((e) => e.upload_id)).toEqual(['kept']);
    expect(read).toHaveLength(1 + churn.length);
    read.length = 0;
    expect((await unsettledEntries(ledgerPorts(ledger))).map((e) => e.upload_id)).toEqual(['kept']);
    expect(read).toEqual([]);
    // Its listing at revision 0 holds the mark back.
    expect(await markLedger(ledgerPorts(ledger), ctx(3))).toBe(false);

    await store.appendToStream(UPLOAD_LEDGER_STREAM, toEventData([entry('UploadSettled', 'kept')], ctx(4), newEventId));
    await listUpload(ports, UKPRN, 'new', { kind: 'add_trainees', byteCount: 10 }, ctx(5));
    expect((await unsettledEntries(ledgerPorts(ledger))).map((e) => e.upload_id)).toEqual(['new']);
    expect(await markLedger(ledgerPorts(ledger), ctx(6))).toBe(true);
    expect(await markLedger(ledgerPorts(ledger), ctx(6))).toBe(false);

    // A start: the marks, then the ledger from the latest, where the unsettled upload still is.
    read.length = 0;
    expect((await unsettledEntries(ledgerPorts(new UploadLedger()))).map((e) => e.upload_id)).toEqual(['new']);
    const newRevision = 2 + churn.length;
    expect(read).toEqual([`${UPLOAD_LEDGER_MARK_STREAM}@0`, `${UPLOAD_LEDGER_STREAM}@${newRevision}`]);
  });
});
