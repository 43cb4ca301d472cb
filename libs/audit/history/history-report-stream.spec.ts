import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { newEventId, toEventData } from '@app/event-sourcing';
import { erasurePortsOf, historySourcesOf } from '@app/composition';
import { type TraineeEvent, traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration, placementAdded, traineeUpdated } from '@app/trainees/decider/testing/trainee-events';
import { eraseTrainee } from '@app/personal-data/erasure';
import { changeStoredMetadata } from '@app/stores/sqlite/event-log/testing/stored-metadata';
import { withSealedStores } from '../../../test/support/sealed-stores';
import { AuditRefused } from '../audit-log';
import { signAndRecord } from '../digest-log';
import { renderHistoryReport } from './history-report';
import { loadHistoryReport, writeHistoryReport, type HistorySources } from './history-report-stream';

const ID = 'T1';
const at = (s: number) => new Date(Date.parse('2026-01-05T10:00:00.000Z') + s * 1000).toISOString();
const now = () => new Date('2026-11-26T12:00:00.000Z');

/** A writable that keeps each write apart, and asks its writer to wait for 'drain' once it holds `highWaterMark` bytes. */
class Collected extends Writable {
  readonly writes: string[] = [];
  constructor(highWaterMark: number) {
    super({ highWaterMark, decodeStrings: false });
  }
  override _write(chunk: string, _encoding: BufferEncoding, done: () => void): void {
    this.writes.push(chunk);
    setImmediate(done);
  }
}

describe('writeHistoryReport (trainee history --format html, written a chunk at a time)', () => {
  let dir: string;
  /** Runs `fn` on the report's sources over the stores of `dir`, opened as the admin CLI opens them. */
  const withSources = <T>(fn: (sources: HistorySources) => Promise<T>) => withSealedStores(dir, (stores) => fn(historySourcesOf(stores)));

  async function append(events: TraineeEvent[], s: number): Promise<void> {
    const meta = { occurredAt: at(s), providerUkprn: '10000001', apiVersion: 'v2026.1', tokenId: 'token-1', requestId: `req-${s}` };
    await withSealedStores(dir, (stores) => stores.eventStore.appendToStream(traineeStreamId(ID), toEventData(events, meta, newEventId)));
  }

  /** The page as written in chunks of `chunkSize` events to a stream that asks for 'drain' after 4 kB, and the number of writes. */
  async function streamed(traineeId: string, chunkSize: number): Promise<{ page: string; writes: number }> {
    const out = new Collected(4096);
    await withSources((sources) => writeHistoryReport(sources, traineeId, out, { chunkSize, now }));
    expect(out.writableLength).toBe(0); // all handed on before it returns: the CLI exits right after
    out.end();
    await once(out, 'finish');
    return { page: out.writes.join(''), writes: out.writes.length };
  }

  /** The page as it was made before it was streamed: the whole stream read, then rendered at once. */
  const wholePage = async (traineeId: string) =>
    renderHistoryReport(await withSources((sources) => loadHistoryReport(sources, traineeId, now)));

  /** Asserts the page written in chunks of 1, 2, 3 and 1,000 events is the whole page; returns the whole page. */
  async function samePageInChunks(traineeId: string): Promise<string> {
    const whole = await wholePage(traineeId);
    const written: { page: string; writes: number }[] = [];
    for (const size of [1, 2, 3, 1000]) written.push(await streamed(traineeId, size));
    for (const { page } of written) expect(page === whole).toBe(true);
    expect(written[1].writes).toBeGreaterThan(written[3].writes);
    return whole;
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'history-report-stream-'));
    await append(exampleRegistration({ trainee_id: ID, ukprn: '10000001', at: at(0), placement_id: 'P1' }), 0);
    await append([traineeUpdated({ trainee_id: ID, at: at(10), changes: { first_names: 'Ada <b>"&\'' } })], 10);
    const placement = { placement_id: 'P2', name: 'Oak School', created_at: at(20), updated_at: at(20) };
    await append([placementAdded({ trainee_id: ID, at: at(20), placement })], 20);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the whole page, whatever the chunk, with a digest covering part of the stream and proving its head', async () => {
    const key = generateKeyPairSync('ed25519').privateKey;
    await withSealedStores(dir, async (stores) => {
      const trees = await stores.digestTrees();
      await signAndRecord(stores.storedLog, stores.eventStore, trees, key, 'auditor').finally(() => trees.close());
    });
    await append([traineeUpdated({ trainee_id: ID, at: at(30), changes: { middle_names: 'Grace' } })], 30);
    const page = await samePageInChunks(ID);
    expect(page).toContain('<strong>The trainee’s head is under the signed root</strong>');
    expect(page.match(/<li class="event"/g)).toHaveLength(7);
    expect(page.match(/<span class="tag">after the latest digest<\/span>/g)).toHaveLength(1);
    expect((await streamed('t1', 2)).page === page).toBe(true); // the id in another case, as the read model maps it
  });

  it('writes the whole page of an erased trainee', async () => {
    await withSealedStores(dir, async (stores) => eraseTrainee(erasurePortsOf(stores), ID, 'the trainee asked', 'auditor'));
    const page = await samePageInChunks(ID);
    expect(page).toContain('After this event the trainee has no record to show (erased).');
    expect(page).not.toContain('Ada &lt;b&gt;');
  });

  it('writes the whole page of a stream whose chain does not hold, each fault named', async () => {
    const db = new Database(join(dir, 'events.sqlite'));
    db.exec('DROP TRIGGER events_no_update');
    changeStoredMetadata(db, traineeStreamId(ID), 5, (text) => text.replace('req-20', 'req-21'));
    db.close();
    const page = await samePageInChunks(ID);
    expect(page).toContain('revision 5: altered: the event does not match its hash');
    expect(page).toContain('<li class="event faulty" id="rev-5">');
  });

  it('refuses an unknown trainee with the same message, before writing anything', async () => {
    const out = new Collected(4096);
    const refused = withSources((sources) => writeHistoryReport(sources, 'T404', out, { chunkSize: 2, now }));
    await expect(refused).rejects.toThrow(AuditRefused);
    await expect(refused).rejects.toThrow('No trainee with id T404');
    expect(out.writes).toEqual([]);
    await expect(withSources((sources) => loadHistoryReport(sources, 'T404', now))).rejects.toThrow('No trainee with id T404');
  });
});
