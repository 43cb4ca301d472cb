/**
 * "Your trainees" on the uploads page over HTTP (docs/DESIGN.md "The uploads page"): the provider's trainees as the API's read model
 * lists them (name, provider trainee id, status, TRN), filtered by academic year and status, searched by name or provider trainee id,
 * paged; a trainee's record, placements, degrees and history; bad values as an error summary; and another provider's trainees out of
 * reach in the list, the search and by id. TRNs come from a stand-in registry, made to fail for the trainees that must have none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { FakeRegistry } from '../support/fake-registry';
import { PageClient, type PageAnswer } from '../support/page-client';
import { uniqueTrainee } from '../support/trainee-input';

/** The admin CLI in a process of its own, for an erasure beside the running API. */
const admin = AdminWorker.forFile();

const A = '10000481';
const B = '10000482';
const BASE = '/api/v2026.1/trainees';
/** Trainees of A in 2025 to 2026 besides the named ones: with them, two pages of 25. */
const PAGERS = 27;

/** A summary card of the list: the trainee its title links to, its name, and its rows as the page reads. */
interface Card {
  id: string;
  name: string;
  rows: Record<string, string>;
}

/** Text as the page reads: tags dropped, entities of the `html` tag read back, white space collapsed. */
function readable(markup: string): string {
  return markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The summary lists' key/value rows, in page order. */
function rowList(markup: string): [string, string][] {
  return [
    ...markup.matchAll(/<dt class="govuk-summary-list__key">([\s\S]*?)<\/dt>\s*<dd class="govuk-summary-list__value">([\s\S]*?)<\/dd>/g),
  ].map((m) => [readable(m[1]), readable(m[2])]);
}

/** The summary lists' rows by key (the first row of a key). */
function rowsOf(markup: string): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const [key, value] of rowList(markup)) rows[key] ??= value;
  return rows;
}

/** The history's rows: when, and what happened. */
const historyOf = (page: PageAnswer): [string, string][] => rowList(page.text.slice(page.text.indexOf('id="history"')));

/** The list page's trainee cards, in page order. */
function cards(page: PageAnswer): Card[] {
  return page.text
    .split('<div class="govuk-summary-card">')
    .slice(1)
    .map((chunk) => {
      const title = /<h3 class="govuk-summary-card__title">\s*<a class="govuk-link" href="\/uploads\/trainees\/([^"]+)">([^<]*)<\/a>/.exec(
        chunk,
      );
      if (!title) throw new Error('a card without its trainee link');
      return { id: decodeURIComponent(title[1]), name: readable(title[2]), rows: rowsOf(chunk) };
    });
}

/** The count heading: `32 trainees`. */
const countOf = (page: PageAnswer): string =>
  readable(/<h2 class="govuk-heading-m" id="results"[^>]*>([\s\S]*?)<\/h2>/.exec(page.text)?.[1] ?? '');

/** The error summary's links and messages; [] when the page has none. */
function summary(page: PageAnswer): { href: string; message: string }[] {
  if (!page.text.includes('govuk-error-summary')) return [];
  expect(page.text).toMatch(/<title>Error: /);
  return [...page.text.matchAll(/<li><a href="(#[\w-]+)">([^<]*)<\/a><\/li>/g)].map((m) => ({ href: m[1], message: readable(m[2]) }));
}

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, withinMs = 15_000): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the uploads page: your trainees', () => {
  let registry: FakeRegistry;
  let api: RunningApi;
  let tokenA: string;
  let tokenB: string;
  /** A's named trainees by label, and B's one. */
  const ids: Record<string, string> = {};

  const create = async (token: string, overrides: Record<string, unknown>): Promise<string> => {
    const created = await api.request('POST', BASE, token, uniqueTrainee('v2026.1', overrides));
    expect([created.status, created.status === 201 ? '' : created.text]).toEqual([201, '']);
    return created.body.data.trainee_id as string;
  };
  const named = (first: string, last: string, ptid: string) => ({ first_names: first, last_name: last, provider_trainee_id: ptid });
  const state = (token: string, id: string) => api.request('GET', `${BASE}/${id}`, token).then((r) => r.body.data);

  beforeAll(async () => {
    registry = new FakeRegistry();
    await registry.start();
    api = await RunningApi.start({ registryUrl: registry.url });
    tokenA = await api.providerToken(A);
    tokenB = await api.providerToken(B);
    // 2025 to 2026 (the sample's dates): in training, then deferred, withdrawn and awarded, each with a TRN.
    ids.ada = await create(tokenA, named('Ada', 'Quillfeather', 'PTA/0001'));
    ids.bo = await create(tokenA, named('Bo', 'Marsh', 'PTA/0002'));
    ids.cy = await create(tokenA, named('Cy', 'Quill', 'PTA/0003'));
    // A recommendation on this route needs two placements.
    ids.di = await create(tokenA, {
      ...named('Di', 'Ng', 'PTA/0004'),
      placements_attributes: [{ urn: '900020' }, { urn: '654321', name: 'Oak School' }],
    });
    ids.gil = await create(tokenB, named('Gil', 'Quillfeather', 'PTA/0001'));
    for (const [label, token] of [
      ['ada', tokenA],
      ['bo', tokenA],
      ['cy', tokenA],
      ['di', tokenA],
      ['gil', tokenB],
    ] as const)
      expect(
        (
          await eventually(
            () => state(token, ids[label]),
            (t) => t.trn !== null,
          )
        ).trn,
      ).not.toBeNull();
    const act = (id: string, action: string, data: object) => api.request('POST', `${BASE}/${id}/${action}`, tokenA, { data });
    expect((await act(ids.bo, 'defer', { defer_date: '2026-01-05', defer_reason: 'Health' })).status).toBe(200);
    const withdrawal = {
      withdrawal_date: '2026-01-10',
      trigger: 'trainee',
      future_interest: 'no',
      reasons: ['does_not_want_to_become_a_teacher'],
    };
    expect((await act(ids.cy, 'withdraw', withdrawal)).status).toBe(200);
    const recommended = await act(ids.di, 'recommend-for-qts', { qts_standards_met_date: new Date().toISOString().slice(0, 10) });
    expect(recommended.status).toBe(202);
    expect(
      (
        await eventually(
          () => state(tokenA, ids.di),
          (t) => t.state === 'awarded',
        )
      ).state,
    ).toBe('awarded');
    // From here the registry refuses every TRN request: these trainees have none.
    registry.failures['/trn-requests'] = Array.from({ length: 100_000 }, () => 503);
    ids.ed = await create(tokenA, named('Ed', 'Okafor', 'PTA/0005'));
    // The academic year holding today's date, its course starting after today: not started yet.
    const year = Number(new Date().toISOString().slice(0, 4)) + 1;
    ids.fay = await create(tokenA, {
      ...named('Fay', 'Penrose', 'PTA/0006'),
      itt_start_date: `${year}-01-11`,
      trainee_start_date: `${year}-01-11`,
      itt_end_date: `${year + 1}-07-31`,
      pg_apprenticeship_start_date: null,
    });
    for (let i = 0; i < PAGERS; i++) await create(tokenA, named('Pat', `Pager${'abcdefghijklmnopqrstuvwxyz'[i % 26]}${i}`, `PG-${i}`));
    await api.infra.catchUp();
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await registry?.stop();
  });

  const signedIn = async (token: string): Promise<PageClient> => {
    const c = new PageClient(api.baseUrl);
    expect((await c.signIn(token)).status).toBe(303);
    return c;
  };
  const listIds = async (token: string, query: string): Promise<string[]> =>
    (await api.request('GET', `${BASE}?${query}`, token)).body.data.map((t: { trainee_id: string }) => t.trainee_id);

  it('lists the current academic year by default, as the API does: each name linked, provider trainee id, status, TRN', async () => {
    const c = await signedIn(tokenA);
    const list = await c.get('/uploads/trainees');
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const api0 = await api.request('GET', `${BASE}?per_page=25`, tokenA);
    expect(countOf(list)).toBe(`${api0.body.meta.total_count} trainee${api0.body.meta.total_count === 1 ? '' : 's'}`);
    expect(cards(list).map((t) => t.id)).toEqual(api0.body.data.map((t: { trainee_id: string }) => t.trainee_id));
    expect(cards(list).find((t) => t.id === ids.fay)).toEqual({
      id: ids.fay,
      name: 'Fay Penrose',
      rows: { 'Provider trainee ID': 'PTA/0006', Status: 'Course not started yet', TRN: 'Not yet' },
    });
    // The navigation marks the list as the page shown.
    expect(list.text).toMatch(/<a class="govuk-service-navigation__link" href="\/uploads\/trainees" aria-current="page"/);
    expect(list.text).toContain('Your trainees');
  });

  it('filters by academic year and by status, the filters kept in the form', async () => {
    const c = await signedIn(tokenA);
    const year = await c.get('/uploads/trainees?cycle=2025');
    expect(countOf(year)).toBe(`${PAGERS + 5} trainees`);
    expect(year.text).toMatch(/<option value="2025" selected>2025 to 2026<\/option>/);
    const status = async (...statuses: string[]) =>
      cards(await c.get(`/uploads/trainees?cycle=2025&${statuses.map((s) => `status=${s}`).join('&')}`));
    const bo = (await status('deferred'))[0];
    expect([bo.name, bo.rows.Status, bo.rows['Provider trainee ID']]).toEqual(['Bo Marsh', 'Deferred', 'PTA/0002']);
    expect(bo.rows.TRN).toMatch(/^\d{7}$/);
    expect((await status('withdrawn')).map((t) => [t.name, t.rows.Status])).toEqual([['Cy Quill', 'Withdrawn']]);
    expect((await status('awarded')).map((t) => [t.name, t.rows.Status])).toEqual([['Di Ng', 'Holds QTS/EYTS']]);
    expect((await status('deferred', 'withdrawn')).map((t) => t.name)).toEqual(['Cy Quill', 'Bo Marsh']);
    const inTraining = await c.get('/uploads/trainees?cycle=2025&status=in_training');
    expect(countOf(inTraining)).toBe(`${PAGERS + 2} trainees`);
    expect(inTraining.text).toMatch(/value="in_training"\s+checked/);
    const secondPage = await c.get('/uploads/trainees?cycle=2025&status=in_training&page=2');
    expect(cards(secondPage).find((t) => t.id === ids.ed)?.rows).toEqual({
      'Provider trainee ID': 'PTA/0005',
      Status: 'In training',
      TRN: 'Not yet',
    });
    expect(await listIds(tokenA, 'academic_cycle=2025&status=in_training&per_page=25')).toEqual(cards(inTraining).map((t) => t.id));
  });

  it('searches by last name, part of a name or the provider trainee id, ignoring case', async () => {
    const c = await signedIn(tokenA);
    const search = async (text: string) => {
      const page = await c.get(`/uploads/trainees?cycle=2025&search=${encodeURIComponent(text)}`);
      expect(page.status).toBe(200);
      return cards(page).map((t) => t.name);
    };
    expect(await search('Quillfeather')).toEqual(['Ada Quillfeather']);
    expect(await search('QUILL')).toEqual(['Cy Quill', 'Ada Quillfeather']);
    expect(await search('  ada   quill ')).toEqual(['Ada Quillfeather']);
    expect(await search('pta/0002')).toEqual(['Bo Marsh']);
    expect(await search('okafor')).toEqual(['Ed Okafor']);
    expect(await search('Smith')).toEqual([]);
    const kept = await c.get('/uploads/trainees?cycle=2025&search=Quill&status=withdrawn');
    expect(cards(kept).map((t) => t.name)).toEqual(['Cy Quill']);
    expect(countOf(kept)).toBe('1 trainee');
    expect(kept.text).toMatch(/id="search"[\s\S]*?value="Quill"/);
    const none = await c.get('/uploads/trainees?cycle=2025&search=nobody');
    expect([countOf(none), readable(none.text)]).toEqual([
      '0 trainees',
      expect.stringContaining('No trainees in 2025 to 2026 matching your search.'),
    ]);
  });

  it('pages 25 trainees at a time with GOV.UK pagination', async () => {
    const c = await signedIn(tokenA);
    const first = await c.get('/uploads/trainees?cycle=2025');
    expect(cards(first)).toHaveLength(25);
    expect(readable(first.text)).toContain('Page 1 of 2, in 2025 to 2026.');
    expect(first.text).toMatch(
      /<a\s+class="govuk-link govuk-pagination__link"\s+href="\/uploads\/trainees\?cycle=2025&amp;page=2"\s+rel="next"/,
    );
    expect(first.text).not.toContain('rel="prev"');
    const second = await c.get('/uploads/trainees?cycle=2025&page=2');
    expect(second.status).toBe(200);
    expect(cards(second)).toHaveLength(PAGERS + 5 - 25);
    expect(readable(second.text)).toContain('Page 2 of 2');
    expect(second.text).toMatch(/href="\/uploads\/trainees\?cycle=2025"\s+rel="prev"/);
    expect(second.text).toMatch(/aria-label="Page 2"\s+aria-current="page"/);
    expect([...cards(first), ...cards(second)].map((t) => t.id)).toEqual(await listIds(tokenA, 'academic_cycle=2025&per_page=100'));
  });

  it('answers a bad filter, search or page with an error summary (4xx), never a 5xx', async () => {
    const c = await signedIn(tokenA);
    const cases: [string, number, { href: string; message: string }[]][] = [
      [`search=${'a'.repeat(101)}`, 400, [{ href: '#search', message: 'Search must be 100 characters or fewer' }]],
      [`search=${'x'.repeat(5_000)}`, 400, [{ href: '#search', message: 'Search must be 100 characters or fewer' }]],
      ['search=a+b+c+d+e+f', 400, [{ href: '#search', message: 'Search for 5 words or fewer' }]],
      ['search=a&search=b', 400, [{ href: '#search', message: 'Enter one search' }]],
      ['cycle=1999', 400, [{ href: '#cycle', message: 'Select an academic year from the list' }]],
      ['cycle=2025&cycle=2026', 400, [{ href: '#cycle', message: 'Select an academic year from the list' }]],
      ['cycle=%3Cscript%3E', 400, [{ href: '#cycle', message: 'Select an academic year from the list' }]],
      ['status=bogus', 400, [{ href: '#status', message: 'Select statuses from the list' }]],
      [`${'status=deferred&'.repeat(6)}cycle=2025`, 400, [{ href: '#status', message: 'Select statuses from the list' }]],
      ['page=0', 400, [{ href: '#results', message: 'Page must be a whole number from 1 to 10,000' }]],
      ['page=-1', 400, [{ href: '#results', message: 'Page must be a whole number from 1 to 10,000' }]],
      ['page=99999999999999999999', 400, [{ href: '#results', message: 'Page must be a whole number from 1 to 10,000' }]],
      ['page=1e3', 400, [{ href: '#results', message: 'Page must be a whole number from 1 to 10,000' }]],
      ['cycle=2025&page=3', 404, [{ href: '#results', message: 'There is no page 3: the list has 2 pages' }]],
      [
        'search=a+b+c+d+e+f&cycle=1&page=x',
        400,
        [
          { href: '#search', message: 'Search for 5 words or fewer' },
          { href: '#cycle', message: 'Select an academic year from the list' },
          { href: '#results', message: 'Page must be a whole number from 1 to 10,000' },
        ],
      ],
    ];
    for (const [query, status, errors] of cases) {
      const page = await c.get(`/uploads/trainees?${query}`);
      expect([query.slice(0, 40), page.status, summary(page)]).toEqual([query.slice(0, 40), status, errors]);
    }
    const refused = await c.get('/uploads/trainees?cycle=%3Cscript%3E&search=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(refused.text).not.toContain('<script>alert');
    expect(refused.text).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(refused.text).toContain('govuk-input govuk-!-width-two-thirds');
    expect((await fetch(`${api.baseUrl}/readyz`)).status).toBe(200);
  });

  it("shows a trainee's record, placements, degrees and history, in a person's words", async () => {
    expect(
      (
        await api.request('POST', `${BASE}/${ids.bo}/placements`, tokenA, {
          data: { urn: '100001', name: 'Oak Primary School', postcode: 'GU1 6FR' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await api.request('PATCH', `${BASE}/${ids.bo}`, tokenA, { data: { middle_names: 'Rowan', email: 'bo.marsh@example.com' } })).status,
    ).toBe(200);
    await api.infra.catchUp();
    const c = await signedIn(tokenA);
    const found = await c.get('/uploads/trainees?cycle=2025&search=marsh');
    expect(found.text).toContain(`href="/uploads/trainees/${ids.bo}"`);
    const page = await c.get(`/uploads/trainees/${ids.bo}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<h1 class="govuk-heading-l">Bo Marsh<\/h1>/);
    const rows = rowsOf(page.text);
    expect(rows).toMatchObject({
      Status: 'Deferred',
      'Record state': 'Deferred',
      TRN: expect.stringMatching(/^\d{7}$/),
      'Trainee ID': ids.bo,
      'Added through': 'Your system, through the API',
      'Date deferred': '5 January 2026',
      'Reason for deferring': 'Health',
      'Provider trainee ID': 'PTA/0002',
      'First names': 'Bo',
      'Middle names': 'Rowan',
      'Last name': 'Marsh',
      'Email address': 'bo.marsh@example.com',
      Sex: 'Male (11)',
      'ITT start date': '1 August 2025',
      'Course subject 1': expect.stringMatching(/ \(100346\)$/),
      Disabilities: expect.stringMatching(/\(58\), .*\(57\)$/),
      'Placement school URN': expect.any(String),
      'Degree grade': expect.stringMatching(/ \(02\)$/),
    });
    expect(rows['Date of birth']).toMatch(/^\d{1,2} March 1991$/);
    expect(rows['Training route']).toMatch(/^.+ \(11\)$/);
    expect(readable(page.text)).toMatch(
      /Placement 1 Placement school URN 900020 .*Placement 2 Placement school URN 100001 Placement school name Oak Primary School/,
    );
    expect(readable(page.text)).toMatch(/Degree 1 UK degree type .+ \(083\)/);
    const history = historyOf(page);
    for (const [when] of history) expect(when).toMatch(/^\d{1,2} \w+ 20\d\d at \d{1,2}:\d{2}[ap]m UTC$/);
    expect(history.map(([, what]) => what)).toEqual([
      'Trainee added',
      'Placement added',
      'Degree added',
      'Submitted for a TRN',
      'TRN received',
      'Deferred',
      'Placement added',
      'Details changed Changed: Middle names, Email address',
    ]);
    expect(page.text).toMatch(/<a class="govuk-service-navigation__link" href="\/uploads\/trainees" aria-current="true"/);
  });

  it('pages the history 50 events at a time, and answers a bad history place "Page not found"', async () => {
    const id = await create(tokenA, named('Hal', 'Busy', 'PTA/0008'));
    for (let i = 0; i < 50; i++)
      expect((await api.request('PATCH', `${BASE}/${id}`, tokenA, { data: { middle_names: `M${i}` } })).status).toBe(200);
    await api.infra.catchUp();
    const c = await signedIn(tokenA);
    const first = await c.get(`/uploads/trainees/${id}`);
    const count = (p: PageAnswer) => historyOf(p).length;
    expect(count(first)).toBe(50);
    const next = /<a class="govuk-link" href="([^"]+)">Show later changes<\/a>/.exec(first.text)?.[1].replace(/&amp;/g, '&');
    expect(next).toBe(`/uploads/trainees/${id}?history_from=50&history_state=submitted_for_trn#history`);
    const second = await c.get(next!.replace('#history', ''));
    // Registered with a placement and a degree, submitted, then 50 changes: 54 events.
    expect([second.status, count(second)]).toEqual([200, 4]);
    expect(historyOf(second).map(([, what]) => what)).toEqual(Array(4).fill('Details changed Changed: Middle names'));
    expect(second.text).not.toContain('Show later changes');
    for (const query of [
      'history_from=x&history_state=none',
      'history_from=1',
      'history_from=1&history_state=erased',
      'history_state=draft',
    ])
      expect([query, (await c.get(`/uploads/trainees/${id}?${query}`)).status]).toEqual([query, 404]);
  });

  it("keeps another provider's trainees out of the list, the search and their pages", async () => {
    const b = await signedIn(tokenB);
    for (const query of [
      '',
      '?cycle=2025',
      '?cycle=2025&search=quillfeather',
      '?cycle=2025&search=PTA%2F0001',
      '?cycle=2025&status=deferred',
    ]) {
      const page = await b.get(`/uploads/trainees${query}`);
      expect([query, page.status]).toEqual([query, 200]);
      expect([query, cards(page).map((t) => t.id)]).toEqual([query, query === '' || query.includes('deferred') ? [] : [ids.gil]]);
      for (const label of ['ada', 'bo', 'cy', 'di', 'ed', 'fay']) expect(page.text).not.toContain(ids[label]);
    }
    for (const label of ['ada', 'bo', 'fay']) {
      const page = await b.get(`/uploads/trainees/${ids[label]}`);
      expect([label, page.status]).toEqual([label, 404]);
      expect(page.text).toContain('Page not found');
      expect(page.text).not.toMatch(/Quillfeather|Marsh|Penrose/);
    }
    for (const id of ['no-such-trainee', 'x'.repeat(256), ids.ada.toLowerCase() === ids.ada ? 'UNKNOWN' : ids.ada.toLowerCase()])
      expect((await b.get(`/uploads/trainees/${id}`)).status).toBe(404);
    // Its own trainee, in any letter case (ids match case-insensitively, as on the API).
    expect((await b.get(`/uploads/trainees/${ids.gil.toUpperCase()}`)).status).toBe(200);
    // A's person with the viewer role reads A's trainees; nobody signed in is sent to sign in.
    const viewer = new PageClient(api.baseUrl);
    expect((await viewer.signInAsPerson({ ukprn: A, role: 'viewer' })).status).toBe(303);
    expect(cards(await viewer.get(`/uploads/trainees?cycle=2025&search=quillfeather`)).map((t) => t.id)).toEqual([ids.ada]);
    expect((await viewer.get(`/uploads/trainees/${ids.ada}`)).status).toBe(200);
    const nobody = new PageClient(api.baseUrl);
    for (const path of ['/uploads/trainees', `/uploads/trainees/${ids.ada}`]) {
      const res = await nobody.get(path);
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 303, '/uploads']);
    }
  });

  it('answers "Page not found" for an erased trainee, and lists it no more', async () => {
    const id = await create(tokenA, named('Ivo', 'Gone', 'PTA/0009'));
    await api.infra.catchUp();
    const c = await signedIn(tokenA);
    expect((await c.get(`/uploads/trainees/${id}`)).status).toBe(200);
    const ledger = mkdtempSync(join(tmpdir(), 'erasure-ledger-'));
    try {
      const erased = await admin.run(['trainee', 'erase', id, '--reason', 'Request DPO-1', '--by', 'dpo'], api.dataDir, {
        BACKUP_DIR: ledger,
      });
      expect(erased.code).toBe(0);
    } finally {
      rmSync(ledger, { recursive: true, force: true });
    }
    await api.infra.catchUp();
    const page = await c.get(`/uploads/trainees/${id}`);
    expect([page.status, page.text.includes('Page not found')]).toEqual([404, true]);
    expect(cards(await c.get('/uploads/trainees?cycle=2025&search=gone'))).toEqual([]);
  });
});
