/**
 * The auditor's HTML report (`admin trainee history <trainee_id> --format html`, docs/operations.md
 * "Trainee history") of a trainee written through the API, with a signed digest recorded between
 * its writes: the page the CLI writes is self-contained, and a headless Chromium renders from it
 * the timeline's event types in order, an old → new pair, the chain's verdict and the digest
 * section; a digest another key than the configured one signed gets a failed verdict. Without a
 * Chromium on this machine the rendering test is reported as skipped, loudly, and the rest still
 * runs. Assertions compare the pieces they pick from the page, never print it.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyFingerprint } from '@app/audit';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { findChromium, renderedDom } from '../support/headless-browser';
import { uniqueTrainee } from '../support/trainee-input';

const browser = findChromium();
/** The changed fields the rendering test reads back: none of them personal data. */
const NOT_PERSONAL = new Set(['name', 'course_subject_2', 'state']);

/** The text of an HTML fragment: tags dropped, the character references a serializer writes read back. */
function text(html: string): string {
  const refs: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };
  return html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (r) => refs[r]);
}

/**
 * The admin CLI loaded once in a process of its own, for commands run again here; the first run of
 * each command, and the runs about the program itself, start it as operators do.
 */
const admin = AdminWorker.forFile();

describe('admin trainee history --format html', () => {
  let dataDir: string;
  let traineeId: string;
  let digest: { position: number; root: string };
  let html: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'trainee-records-report-'));
    let api = await RunningApi.start({ dataDir });
    try {
      const token = await api.providerToken('10000150');
      const created = await api.request('POST', '/api/v2026.1/trainees', token, uniqueTrainee('v2026.1'));
      expect(created.status).toBe(201);
      traineeId = (created.body as { data: { trainee_id: string } }).data.trainee_id;
      const base = `/api/v2026.1/trainees/${traineeId}`;
      const placement = await api.request('POST', `${base}/placements`, token, { data: { urn: '100001', name: 'Oak School' } });
      expect(placement.status).toBe(201);
      const placementId = (placement.body as { data: { placement_id: string } }).data.placement_id;
      expect((await api.request('PATCH', `${base}/placements/${placementId}`, token, { data: { name: 'Fir Academy' } })).status).toBe(200);
    } finally {
      await api.close();
    }
    const signed = await admin.run(['audit', 'digest', '--by', 'auditor'], dataDir);
    expect(signed.code).toBe(0);
    digest = JSON.parse(signed.stdout) as typeof digest;
    api = await RunningApi.start({ dataDir });
    try {
      const token = await api.providerToken('10000150');
      const patched = await api.request('PATCH', `/api/v2025.0/trainees/${traineeId}`, token, { data: { course_subject_two: '100425' } });
      expect(patched.status).toBe(200);
    } finally {
      await api.close();
    }
    const report = await admin.run(['trainee', 'history', traineeId, '--format', 'html'], dataDir);
    if (report.code !== 0) throw new Error(`trainee history --format html: exit ${report.code}: ${report.stderr}`);
    html = report.stdout;
  }, 120_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes one HTML page that loads nothing from elsewhere', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html.match(/<script|<link|<img|<iframe|<object|@import|url\(|src=|href="(?!#)/gi) ?? []).toEqual([]);
  });

  it('proves the trainee’s head under the digest’s root with the kept tree’s inclusion proof', () => {
    expect(html).toContain('<strong>The trainee’s head is under the signed root</strong>');
    expect(html).toContain('An inclusion proof shows it under the signed Merkle root.');
  });

  it('keeps --json as the alias of --format json, and refuses --format html with --as-of', async () => {
    const [alias, format] = await Promise.all([
      admin.run(['trainee', 'history', traineeId, '--json'], dataDir),
      admin.run(['trainee', 'history', traineeId, '--format', 'json'], dataDir),
    ]);
    expect([alias.code, format.code]).toEqual([0, 0]);
    expect(format.stdout === alias.stdout).toBe(true);
    expect(alias.stdout.trim().split('\n')).toHaveLength(7);
    const asOf = await admin.run(['trainee', 'history', traineeId, '--format', 'html', '--as-of', '2026-01-05T10:00:00Z'], dataDir);
    expect(asOf.code).toBe(1);
    expect(asOf.stderr).toContain('--as-of prints the trainee as JSON');
  });

  it('fails the verdict on a digest recorded in the log that another key than the configured one signed', async () => {
    const otherKey = join(dataDir, 'other-signing-key.pem');
    const other = generateKeyPairSync('ed25519').privateKey;
    writeFileSync(otherKey, other.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    const signed = await admin.run(['audit', 'digest', '--by', 'someone else'], dataDir, { AUDIT_SIGNING_KEY_FILE: otherKey });
    expect(signed.code).toBe(0);
    const report = await admin.run(['trainee', 'history', traineeId, '--format', 'html'], dataDir);
    expect(report.code).toBe(0);
    const verdict = /<div class="verdict (\w+)" id="digest-result">([\s\S]*?)<\/div>/.exec(report.stdout)!;
    expect(verdict[1]).toBe('bad');
    expect(text(verdict[2])).toContain('The digest was NOT signed by this deployment’s signing key');
    expect(text(verdict[2])).toContain(`It was signed by the key with fingerprint ${keyFingerprint(other)}, not `);
    expect(text(verdict[2])).not.toContain('under the signed root');
  });

  if ('command' in browser) {
    it('renders in headless Chromium: the events in order, an old → new pair, the chain holds, the digest covers the head', async () => {
      const file = join(dataDir, 'report.html');
      writeFileSync(file, html);
      const dom = await renderedDom(browser.command, file);
      const types = [...dom.matchAll(/<span class="type">(.*?)<\/span>/g)].map((m) => text(m[1]));
      expect(types).toEqual([
        'TraineeRegistered',
        'PlacementAdded',
        'DegreeAdded',
        'TraineeSubmittedForTrn',
        'PlacementAdded',
        'PlacementUpdated',
        'TraineeUpdated',
      ]);
      const rows = [
        ...dom.matchAll(/<tr><td>(.*?)<\/td><td class="old">(.*?)<\/td><td class="arrow">→<\/td><td class="new">(.*?)<\/td><\/tr>/g),
      ];
      // Only the rows of fields that hold no personal data, those whose value was changed.
      const pairs = rows
        .map((r) => [text(r[1]), text(r[2]), text(r[3])])
        .filter(([field, before]) => before !== '—' && NOT_PERSONAL.has(field));
      expect(pairs).toEqual([
        ['state', 'draft', 'submitted_for_trn'],
        ['name', 'Oak School', 'Fir Academy'],
        ['course_subject_2', '101410', '100425'],
      ]);
      const times = [...dom.matchAll(/<time datetime="([^"]+)">(.*?)<\/time>/g)];
      expect(times).toHaveLength(7);
      for (const [, datetime, shown] of times) expect(shown).toBe(`${datetime.slice(0, 10)} ${datetime.slice(11, -1)} UTC`);
      const chain = text(/<div class="verdict ok" id="chain-result">([\s\S]*?)<\/div>/.exec(dom)?.[1] ?? '');
      expect(chain).toBe('The hash chain holdsAll 7 events of the stream match their hashes, each chained to the one before it.');
      const digestPart = text(/<section id="verification">([\s\S]*?)<\/section>/.exec(dom)?.[1] ?? '');
      expect(digestPart).toContain(`Position${digest.position}`);
      expect(digestPart).toContain(`Merkle root${digest.root}`);
      expect(digestPart).toContain('Signatureholds');
      expect(digestPart).toContain('The trainee’s head is under the signed root');
      expect(digestPart).toContain(`The 1 event(s) stored after position ${digest.position} are the next digest’s to cover.`);
      expect(dom.match(/<details[ >]/g)).toHaveLength(7);
      expect(dom.match(/<details open/g)).toBeNull();
    });
  } else {
    const reason = `History report browser test SKIPPED: ${browser.reason}`;
    console.warn(reason);
    it.skip(reason, () => undefined);
  }
});
