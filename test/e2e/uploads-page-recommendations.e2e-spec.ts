/**
 * Recommending trainees for QTS or EYTS on the uploads page (`/uploads/recommendations`), over HTTP without a browser: the
 * provider's template, a file with errors worded for a person, the fixed file's summary naming each trainee, the submit written as
 * the person's own, the result; another provider's upload, and one of the other kind, "Page not found"; a viewer shown no form.
 */
import { parse } from 'csv-parse/sync';
import { RunningApi } from '../support/api-harness';
import { PageClient, type PageAnswer } from '../support/page-client';
import { recommendableTrainee } from '../support/trainee-input';

const C = '10000483';
const D = '10000484';
const V = 'v2026.1';
const HEADER = 'trainee_id,provider_trainee_id,trn,first_names,last_name,qts_standards_met_date';
/** Where the recommendations form posts. */
const RECOMMEND = '/uploads/recommendations/files';

/** The page's error cards: each row's errors as [row, column label, words]. */
function errorCards(text: string): [string, string, string][] {
  const cards = [...text.matchAll(/<h3 class="govuk-summary-card__title">Row (\d+)<\/h3>([\s\S]*?)<\/dl>/g)];
  return cards.flatMap(([, row, body]) =>
    [
      ...body.matchAll(
        /<dt class="govuk-summary-list__key">\s*([^<]*?)\s*(?:<br \/><span[^>]*>Column: [^<]*<\/span>)?\s*<\/dt>\s*<dd class="govuk-summary-list__value">([^<]*)<\/dd>/g,
      ),
    ].map(([, label, words]): [string, string, string] => [row, label, words.replace(/&#39;/g, "'")]),
  );
}

/** The summary of a checked file: its rows as [key, value], spaces folded. */
function summaryOf(page: PageAnswer): [string, string][] {
  const list = /<dl class="govuk-summary-list" id="file-summary">([\s\S]*?)<\/dl>/.exec(page.text)?.[1] ?? '';
  return [
    ...list.matchAll(/<dt class="govuk-summary-list__key">([\s\S]*?)<\/dt>\s*<dd class="govuk-summary-list__value">([\s\S]*?)<\/dd>/g),
  ].map((m): [string, string] => [m[1].trim(), m[2].replace(/\s+/g, ' ').trim()]);
}

/** The page's forms by where they post, the sign-out's left out. */
const forms = (text: string) =>
  [...text.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]).filter((a) => !a.endsWith('/sign-out'));

describe('recommending trainees on the uploads page', () => {
  let api: RunningApi;
  let tokenC: string;
  const trainees: { id: string; first: string; last: string }[] = [];

  beforeAll(async () => {
    api = await RunningApi.start();
    tokenC = await api.providerToken(C);
    await api.providerToken(D);
    for (let i = 0; i < 3; i++) {
      const body = recommendableTrainee(V);
      const res = await api.request('POST', `/api/${V}/trainees`, tokenC, body);
      expect(res.status).toBe(201);
      trainees.push({ id: res.body.data.trainee_id, first: String(body.data.first_names), last: String(body.data.last_name) });
    }
  });
  afterAll(() => api.close());

  it('takes the template, words each error for a person, sums up the fixed file by name, and submits it as the person’s', async () => {
    const c = new PageClient(api.baseUrl);
    expect((await c.get('/uploads/recommendations')).status).toBe(303);
    await c.signInAsPerson({ ukprn: C });
    const home = await c.get('/uploads');
    expect(home.text).toContain('<a class="govuk-service-navigation__link" href="/uploads/recommendations">Recommend trainees</a>');
    const start = await c.get('/uploads/recommendations');
    expect(start.status).toBe(200);
    expect(start.text).toContain('<h1 class="govuk-heading-l">Recommend trainees for QTS or EYTS</h1>');
    expect(forms(start.text)).toEqual(['/uploads/recommendations/files']);
    expect(start.text).toMatch(
      /id="columns"[\s\S]*Date QTS or EYTS standards met[\s\S]*A date in the format YYYY-MM-DD, for example 2026-06-30/,
    );

    const template = await c.get('/uploads/recommendations/template.csv');
    expect([template.headers.get('content-type'), template.headers.get('cache-control')]).toEqual(['text/csv; charset=utf-8', 'no-store']);
    const lines = template.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(HEADER);
    const lineOf = (id: string) => lines.find((l) => l.startsWith(`${id},`))!;
    for (const t of trainees) expect(lineOf(t.id)).toContain(`,${t.first},${t.last},`);
    const dated = (dates: Record<string, string>, extra: string[] = []) =>
      [HEADER, ...lines.slice(1).map((l) => `${l}${dates[l.split(',')[0]] ?? ''}`), ...extra].join('\r\n') + '\r\n';

    // Errors: a day-first date, a date in the future, an id not the provider's, a name that does not match.
    const [t0, t1, t2] = trainees;
    const bad = dated({ [t0.id]: '20/07/2026', [t1.id]: '2099-01-01' }, [
      'no-such-trainee,,,,,2026-07-20',
      `${t2.id},,,,Somebody-else,2026-07-20`,
    ]);
    const sent = await c.upload(bad, 'recommendations.csv', RECOMMEND);
    const failedUrl = sent.headers.get('location')!;
    expect(failedUrl).toMatch(/^\/uploads\/recommendations\/files\/[\w-]+$/);
    const failed = await c.settled(failedUrl);
    expect(failed.text).toContain('<h1 class="govuk-heading-l">Fix the errors in your file</h1>');
    const rowOf = (id: string) => String(lines.indexOf(lineOf(id)) + 1);
    const unknownRow = String(lines.length + 1);
    const mismatchRow = String(lines.length + 2);
    expect(errorCards(failed.text).sort()).toEqual(
      [
        [
          rowOf(t0.id),
          'Date QTS or EYTS standards met',
          'Enter date QTS or EYTS standards met in the format YYYY-MM-DD, for example 2026-06-30: a spreadsheet may have changed 2026-07-20 to 20/07/2026',
        ],
        [rowOf(t1.id), 'Date QTS or EYTS standards met', 'Date QTS or EYTS standards met must be today or in the past'],
        [unknownRow, 'Trainee ID', 'Trainee ID no-such-trainee is not one of your trainees: copy it from your recommendations template'],
        [
          mismatchRow,
          'Last name',
          'Last name does not match the trainee’s record: copy it from your recommendations template, or leave it blank',
        ],
      ].sort(),
    );
    expect(summaryOf(failed)).toEqual([
      ['Will be recommended', 'None'],
      ['Has errors', expect.stringMatching(new RegExp(`^4 rows: rows .*${mismatchRow}$`))],
    ]);
    const errorsFile = parse((await c.get(`${failedUrl}/errors.csv`)).text, { bom: true }) as string[][];
    expect(errorsFile[0]).toEqual([...HEADER.split(','), 'errors']);
    expect(errorsFile.find((r) => r[0] === 'no-such-trainee')?.at(-1)).toMatch(/^Trainee ID no-such-trainee is not one of your trainees/);
    // The API answers the same upload with its own messages.
    const answer = await api.request('GET', `/api/${V}/recommendation-uploads/${failedUrl.split('/').pop()}`, tokenC);
    expect(answer.body.data.errors).toContainEqual({
      row: Number(unknownRow),
      column: 'trainee_id',
      message: 'trainee_id is not a trainee of this provider',
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/not one of your trainees|about/);

    // The fixed file: two trainees recommended, named from their records.
    const fixedUrl = (await c.upload(dated({ [t0.id]: '2026-07-20', [t1.id]: '2026-07-21' }), 'fixed.csv', RECOMMEND)).headers.get(
      'location',
    )!;
    const checked = await c.settled(fixedUrl);
    expect(checked.text).toContain('<h1 class="govuk-heading-l">2 trainees will be recommended</h1>');
    expect(summaryOf(checked)).toEqual([
      ['Will be recommended', `2 trainees: rows ${[rowOf(t0.id), rowOf(t1.id)].sort().join(' and ')}`],
      ['Has errors', 'None'],
    ]);
    for (const t of [t0, t1]) expect(checked.text).toContain(`${t.first} ${t.last}<br />`);
    expect(checked.text).not.toContain(t2.last);
    expect(forms(checked.text)).toEqual([`${fixedUrl}/submit`, `${fixedUrl}/cancel`]);
    expect(checked.text).toContain('Submit recommendations');

    // Not through the other kind's pages, and a submit needs the form's token.
    expect((await c.get(`/uploads/files/${fixedUrl.split('/').pop()}`)).status).toBe(404);
    expect((await c.post(`${fixedUrl}/submit`, {}, false)).status).toBe(403);
    const submitted = await c.post(`${fixedUrl}/submit`);
    expect([submitted.status, submitted.headers.get('location')]).toEqual([303, fixedUrl]);
    const result = await c.settled(fixedUrl);
    expect(result.text).toContain('<h1 class="govuk-panel__title">Trainees recommended</h1>');
    expect(result.text).toContain('2 trainees recommended from your file');
    const ids = (await c.get(`${fixedUrl}/trainees.csv`)).text.trimEnd().split('\r\n');
    expect(
      ids
        .slice(1)
        .map((l) => l.split(',')[1])
        .sort(),
    ).toEqual([t0.id, t1.id].sort());

    const states = await Promise.all(trainees.map((t) => api.request('GET', `/api/${V}/trainees/${t.id}`, tokenC)));
    expect(states.map((r) => r.body.data.outcome_date)).toEqual(['2026-07-20', '2026-07-21', null]);
    // The recommendation is the person's own write.
    const events = await api.infra.eventStore.readStream(`trainee-${t0.id}`);
    const recommended = events.find((e) => e.type === 'TraineeRecommendedForAward')!;
    expect(recommended.metadata.userId).toMatch(/^sandbox-/);

    // The start page lists the provider's recommendation uploads, not its others.
    const listed = await c.get('/uploads/recommendations');
    expect(listed.text).toContain(`href="${fixedUrl}"`);
    expect((await c.get('/uploads')).text).not.toContain(fixedUrl.split('/').pop()!);

    // Another provider's session: "Page not found".
    const other = new PageClient(api.baseUrl);
    await other.signInAsPerson({ ukprn: D });
    for (const path of [fixedUrl, `${fixedUrl}/errors.csv`, `${fixedUrl}/trainees.csv`]) expect((await other.get(path)).status).toBe(404);
    await other.get('/uploads/recommendations');
    expect((await other.post(`${failedUrl}/cancel`)).status).toBe(404);
  });

  it('refuses a file with no date as a whole, in the error summary', async () => {
    const c = new PageClient(api.baseUrl);
    await c.signInAsPerson({ ukprn: C });
    await c.get('/uploads/recommendations');
    const refused = await c.upload(`${HEADER}\r\n${trainees[2].id},,,,,\r\n`, 'none.csv', RECOMMEND);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('<h1 class="govuk-heading-l">Recommend trainees for QTS or EYTS</h1>');
    expect(refused.text).toContain(
      '<li><a href="#file">The selected file must give a qts_standards_met_date for at least one trainee</a></li>',
    );
  });

  it('shows a viewer the recommendations and their template, with no form to upload one', async () => {
    const viewer = new PageClient(api.baseUrl);
    await viewer.signInAsPerson({ ukprn: C, role: 'viewer' });
    const start = await viewer.get('/uploads/recommendations');
    expect(forms(start.text)).toEqual([]);
    expect(start.text).toContain('Your role lets you see your provider’s uploads only.');
    expect((await viewer.upload(`${HEADER}\r\n${trainees[2].id},,,,,2026-07-20\r\n`, 'one.csv', RECOMMEND)).status).toBe(403);
  });
});
