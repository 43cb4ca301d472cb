import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { newEventId, toEventData, checkStreamChain, logPosition } from '@app/event-sourcing';
import { readStoredStream, type DigestSection } from '../stream-digest';
import { type TraineeEvent, traineeStreamId } from '@app/trainees/decider';
import {
  exampleRegistration,
  placementAdded,
  placementRemoved,
  placementUpdated,
  traineeUpdated,
} from '@app/trainees/decider/testing/trainee-events';
import { loadTraineeHistory } from '@app/trainees/read';
import { SqliteEventStore } from '@app/stores/sqlite';
import { escapeHtml, utcText } from './history-report-html';
import { renderHistoryReport, type HistoryReportInput } from './history-report';

const ID = 'T1';
const STREAM = traineeStreamId(ID);
const at = (s: number) => new Date(Date.parse('2026-01-05T10:00:00.000Z') + s * 1000).toISOString();

/** The text of an HTML fragment: tags dropped, the five references the report writes read back. */
function text(html: string): string {
  const refs: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
  return html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (r) => refs[r]);
}

/** Each event of the page: its revision, type and its change rows as [field, before, after] texts. */
function eventsOf(html: string): { revision: number; type: string; faulty: boolean; afterDigest: boolean; rows: string[][] }[] {
  return [...html.matchAll(/<li class="event( faulty)?" id="rev-(\d+)">([\s\S]*?)<\/li>/g)].map((m) => ({
    revision: Number(m[2]),
    faulty: m[1] !== undefined,
    afterDigest: m[3].includes('<span class="tag">after the latest digest</span>'),
    type: text(/<span class="type">(.*?)<\/span>/.exec(m[3])![1]),
    rows: [
      ...m[3].matchAll(/<tr><td>(.*?)<\/td><td class="old">(.*?)<\/td><td class="arrow">→<\/td><td class="new">(.*?)<\/td><\/tr>/g),
    ].map((r) => [text(r[1]), text(r[2]), text(r[3])]),
  }));
}

/** A digest that covers the stream's head at revision 5 (position 6), with 2 events after it. */
const head = { streamId: STREAM, revision: 5, hash: 'ab'.repeat(32) };
const DIGEST: DigestSection = {
  position: logPosition(6),
  signedAt: at(25),
  signedBy: 'auditor',
  root: 'cd'.repeat(32),
  streams: 3,
  keyFingerprint: 'ef'.repeat(32),
  signatureHolds: true,
  trustedKey: { fingerprint: 'ef'.repeat(32), name: 'this deployment’s signing key' },
  head,
  laterEvents: 2,
  included: null,
};

const section = (html: string, id: string) => text(new RegExp(`<div class="verdict (\\w+)" id="${id}">([\\s\\S]*?)</div>`).exec(html)![0]);
const verdictKind = (html: string, id: string) => new RegExp(`<div class="verdict (\\w+)" id="${id}">`).exec(html)![1];

describe('escapeHtml', () => {
  it('writes each of & < > " \' as a character reference, the ampersand first', () => {
    expect(escapeHtml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f');
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
    expect(escapeHtml('</pre><script>x</script>')).toBe('&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;');
    expect(escapeHtml('plain — text')).toBe('plain — text');
  });
});

describe('utcText', () => {
  it('says UTC of an instant in UTC and leaves any other text as it is', () => {
    expect(utcText('2026-01-05T10:00:00.000Z')).toBe('2026-01-05 10:00:00.000 UTC');
    expect(utcText('2026-01-05T10:00:00+01:00')).toBe('2026-01-05T10:00:00+01:00');
  });
});

describe('renderHistoryReport (trainee history --format html)', () => {
  let dir: string;
  let store: SqliteEventStore;
  let revision = -1;

  async function append(now: string, events: TraineeEvent[]): Promise<void> {
    const meta = {
      occurredAt: now,
      providerUkprn: '10000001',
      apiVersion: 'v2026.1',
      tokenId: 'token-1',
      requestId: `req-${revision + 2}`,
    };
    const result = await store.appendToStream(STREAM, toEventData(events, meta, newEventId), {
      expectedRevision: revision < 0 ? 'no_stream' : revision,
    });
    revision = result.nextExpectedRevision;
  }

  async function input(digest: DigestSection | null = null): Promise<HistoryReportInput> {
    const history = (await loadTraineeHistory(store, ID))!;
    const stored = await readStoredStream(store, STREAM);
    return { history, chain: { ...checkStreamChain(stored), events: stored.length }, digest, apiVersion: 'v2026.1', generatedAt: at(999) };
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'history-report-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
    revision = -1;
    await append(at(0), exampleRegistration({ trainee_id: ID, ukprn: '10000001', at: at(0), placement_id: 'P1' }));
    await append(at(10), [
      traineeUpdated({ trainee_id: ID, at: at(10), changes: { first_names: 'Ada <b>"&\'', course_subject_2: '100425' } }),
    ]);
    await append(at(20), [
      placementAdded({
        trainee_id: ID,
        at: at(20),
        placement: { placement_id: 'P2', name: 'Oak School', created_at: at(20), updated_at: at(20) },
      }),
    ]);
    await append(at(30), [
      placementUpdated({
        trainee_id: ID,
        at: at(30),
        placement: { placement_id: 'P2', name: 'Fir Academy', created_at: at(20), updated_at: at(30) },
      }),
    ]);
    await append(at(40), [placementRemoved({ trainee_id: ID, placement_id: 'P1', at: at(40) })]);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows every event in order with its time in UTC, actor, and each changed field before → after', async () => {
    const html = renderHistoryReport(await input());
    const events = eventsOf(html);
    expect(events.map((e) => [e.revision, e.type])).toEqual([
      [0, 'TraineeRegistered'],
      [1, 'PlacementAdded'],
      [2, 'DegreeAdded'],
      [3, 'TraineeSubmittedForTrn'],
      [4, 'TraineeUpdated'],
      [5, 'PlacementAdded'],
      [6, 'PlacementUpdated'],
      [7, 'PlacementRemoved'],
    ]);
    expect(events[4].rows).toEqual([
      ['first_names', 'John', 'Ada <b>"&\''],
      ['course_subject_2', '101410', '100425'],
    ]);
    expect(events[3].rows).toEqual([
      ['state', 'draft', 'submitted_for_trn'],
      ['submitted_for_trn_at', '—', at(0)],
    ]);
    expect(events[6].rows).toEqual([['name', 'Oak School', 'Fir Academy']]);
    expect(events[7].rows).toHaveLength(1);
    expect(events[7].rows[0][0]).toBe('the placement');
    expect(events[7].rows[0][2]).toBe('removed');
    expect(html).toContain('<th colspan="4">placement P2 updated</th>');
    expect(html).toContain('<time datetime="2026-01-05T10:00:10.000Z">2026-01-05 10:00:10.000 UTC</time>');
    const actor = /<li class="event" id="rev-4">[\s\S]*?<dl class="actor">([\s\S]*?)<\/dl>/.exec(html)![1];
    expect(text(actor.replace(/<\/dt>/g, '=').replace(/<\/dd>/g, '; '))).toBe(
      'Provider=10000001; Token id=token-1; API version=v2026.1; Request id=req-5; Position=5; ',
    );
  });

  it('escapes every value: markup in a field is text, and the page loads nothing from elsewhere', async () => {
    const html = renderHistoryReport(await input());
    expect(html).not.toContain('<b>"&');
    expect(html).toContain('Ada &lt;b&gt;&quot;&amp;&#39;');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(|src=|href="(?!#)/i);
  });

  it('keeps each step’s trainee, in the latest version’s shape, collapsed', async () => {
    const html = renderHistoryReport(await input());
    const states = [...html.matchAll(/<details><summary>[^<]*<\/summary><pre>([\s\S]*?)<\/pre><\/details>/g)].map(
      (m) => JSON.parse(text(m[1])) as { first_names: string; course_subject_1?: string; placements: { placement_id: string }[] },
    );
    expect(states).toHaveLength(8);
    expect(states[3].first_names).toBe('John');
    expect(states[4].first_names).toBe('Ada <b>"&\'');
    expect(states[4]).toHaveProperty('course_subject_1');
    expect(states[5].placements.map((p) => p.placement_id)).toEqual(['P1', 'P2']);
    expect(states[7].placements.map((p) => p.placement_id)).toEqual(['P2']);
  });

  it('says the chain holds, with its head, and names a fault by revision when an event was changed', async () => {
    const intact = renderHistoryReport(await input());
    expect(verdictKind(intact, 'chain-result')).toBe('ok');
    expect(section(intact, 'chain-result')).toContain('All 8 events of the stream match their hashes');
    const db = new Database(join(dir, 'events.sqlite'));
    db.exec('DROP TRIGGER events_no_update');
    db.prepare(`UPDATE events SET data = replace(data, 'Fir Academy', 'Fir School') WHERE stream_id = ? AND revision = 6`).run(STREAM);
    db.close();
    const changed = renderHistoryReport(await input());
    expect(verdictKind(changed, 'chain-result')).toBe('bad');
    expect(section(changed, 'chain-result')).toContain('revision 6: altered: the event does not match its hash');
    expect(eventsOf(changed).map((e) => e.faulty)).toEqual([false, false, false, false, false, false, true, false]);
    const index = [...changed.matchAll(/<tr><td><a href="#rev-(\d+)">#\d+<\/a><\/td><td>.*?<\/td><td>(.*?)<\/td>/g)];
    expect(index.map((m) => [Number(m[1]), text(m[2])])).toEqual(
      eventsOf(changed).map((e) => [e.revision, e.faulty ? `${e.type} fault` : e.type]),
    );
    // A digest whose covered head comes after the fault vouches for nothing; one before it still holds.
    const after = renderHistoryReport(await input({ ...DIGEST, head: { ...head, revision: 7 }, laterEvents: 0 }));
    expect(verdictKind(after, 'digest-result')).toBe('bad');
    expect(section(after, 'digest-result')).toContain('But the chain does not hold up to that head');
    expect(verdictKind(renderHistoryReport(await input(DIGEST)), 'digest-result')).toBe('ok');
  });

  it('says plainly when no digest is recorded', async () => {
    const html = renderHistoryReport(await input(null));
    expect(verdictKind(html, 'digest-result')).toBe('warn');
    expect(section(html, 'digest-result')).toContain('No signed digest is recorded in this log');
  });

  it('shows the digest, whether its signature holds and the head it covers; an inclusion proof’s answer when given', async () => {
    const digest = DIGEST;
    const html = renderHistoryReport(await input(digest));
    expect(verdictKind(html, 'digest-result')).toBe('ok');
    const covered = section(html, 'digest-result');
    expect(covered).toContain(`At position 6 the trainee’s stream stood at revision 5, hash ${head.hash}`);
    expect(covered).toContain('This report does not prove the head is under the root');
    expect(covered).toContain('The 2 event(s) stored after position 6');
    expect(html).toContain(digest.root);
    expect(html).toContain(digest.keyFingerprint);
    expect(eventsOf(html).flatMap((e) => (e.afterDigest ? [e.revision] : []))).toEqual([6, 7]);

    const proven = renderHistoryReport(await input({ ...digest, included: true }));
    expect(section(proven, 'digest-result')).toContain('An inclusion proof shows it under the signed Merkle root');
    const disproven = renderHistoryReport(await input({ ...digest, included: false }));
    expect(verdictKind(disproven, 'digest-result')).toBe('bad');
    const forged = renderHistoryReport(await input({ ...digest, signatureHolds: false, included: true }));
    expect(verdictKind(forged, 'digest-result')).toBe('bad');
    expect(text(forged)).toContain('does NOT hold');
    const early = renderHistoryReport(await input({ ...digest, position: logPosition(2), head: null, laterEvents: 8 }));
    expect(section(early, 'digest-result')).toContain('The digest covers none of this trainee’s events');
  });

  it('fails the verdict of a digest another key than the trusted one signed, whatever it covers; warns with no key trusted', async () => {
    const trustedKey = { fingerprint: '12'.repeat(32), name: 'this deployment’s signing key' };
    for (const other of [
      { ...DIGEST, trustedKey, included: true },
      { ...DIGEST, trustedKey, position: logPosition(2), head: null, laterEvents: 8 },
    ]) {
      const html = renderHistoryReport(await input(other));
      expect(verdictKind(html, 'digest-result')).toBe('bad');
      const verdict = section(html, 'digest-result');
      expect(verdict).toContain('The digest was NOT signed by this deployment’s signing key');
      expect(verdict).toContain(`It was signed by the key with fingerprint ${'ef'.repeat(32)}, not ${'12'.repeat(32)}.`);
      expect(verdict).toContain('this digest proves nothing about the log');
      expect(verdict).not.toContain('under the signed root');
    }
    const none = renderHistoryReport(await input({ ...DIGEST, trustedKey: null, included: true }));
    expect(verdictKind(none, 'digest-result')).toBe('warn');
    expect(section(none, 'digest-result')).toContain('No trusted key to hold the digest to.');
    expect(text(none)).toContain('Key trustednone configured');
  });
});
