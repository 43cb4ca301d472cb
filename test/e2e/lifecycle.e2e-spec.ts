import { RunningApi } from '../support/api-harness';
import { uniqueTrainee, type Version } from '../support/trainee-input';

const ST = {
  errors: [
    { error: 'StateTransitionError', message: 'It’s not possible to perform this action while the trainee is in its current state' },
  ],
};
const TWO_PLACEMENTS = [
  { urn: '654321', name: 'Fir School' },
  { urn: '654322', name: 'Pine School' },
];
const today = () => new Date().toISOString().slice(0, 10);

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, withinMs = 5000): Promise<T> {
  const deadline = Date.now() + withinMs;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    value = await read();
  }
  return value;
}

describe.each<Version>(['v2025.0', 'v2026.1'])(
  'lifecycle actions in %s (docs/spec/trainee-records-api.md "States and transitions"; docs/reference/API-FACTS.md §12)',
  (version) => {
    let api: RunningApi;
    let token: string;
    const base = `/api/${version}/trainees`;
    const dateField = version === 'v2025.0' ? 'withdraw_date' : 'withdrawal_date';

    beforeAll(async () => {
      api = await RunningApi.start();
      token = await api.providerToken('10000080');
    });
    afterAll(() => api.close());

    async function newTrainee(overrides: Record<string, unknown> = {}): Promise<string> {
      const res = await api.request('POST', base, token, uniqueTrainee(version, { placements_attributes: TWO_PLACEMENTS, ...overrides }));
      expect(res.status).toBe(201);
      return res.body.data.trainee_id;
    }

    describe('defer', () => {
      it('defers: 200, state deferred, defer_date and defer_reason; a second defer is refused', async () => {
        const id = await newTrainee();
        const res = await api.request('POST', `${base}/${id}/defer`, token, { data: { defer_date: '2026-01-05', defer_reason: 'Health' } });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ trainee_id: id, state: 'deferred', defer_date: '2026-01-05', defer_reason: 'Health' });
        expect(res.body.data.placements).toHaveLength(2);
        const again = await api.request('POST', `${base}/${id}/defer`, token, { data: { defer_date: '2026-01-06' } });
        expect(again.status).toBe(422);
        expect(again.body).toEqual(ST);
        const list = await api.request('GET', `${base}?academic_cycle=2025&status=deferred`, token);
        expect(list.body.data.map((t: { trainee_id: string }) => t.trainee_id)).toContain(id);
      });

      it.each([
        [{ defer_reason: 'x' }, ["defer_date can't be blank"]],
        [{ defer_date: '2026-02-30' }, ['defer_date is invalid']],
        [{ defer_date: '2026-01-05', defer_reason: 'x'.repeat(501) }, ['defer_reason is too long (maximum is 500 characters)']],
      ])('answers 422 for %j', async (data, messages) => {
        const id = await newTrainee();
        const res = await api.request('POST', `${base}/${id}/defer`, token, { data });
        expect(res.status).toBe(422);
        expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual(messages);
        expect((await api.request('GET', `${base}/${id}`, token)).body.data.state).toBe('submitted_for_trn');
      });
    });

    describe('withdraw', () => {
      it('withdraws with the version’s date field and shows the withdrawal fields', async () => {
        const id = await newTrainee();
        const res = await api.request('POST', `${base}/${id}/withdraw`, token, {
          data: {
            [dateField]: '2026-01-10',
            trigger: 'trainee',
            future_interest: 'no',
            reasons: ['trainee_chose_to_withdraw_another_reason'],
            another_reason: 'Moved abroad',
          },
        });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({
          state: 'withdrawn',
          [dateField]: '2026-01-10',
          withdrawal_reasons: ['trainee_chose_to_withdraw_another_reason'],
          withdrawal_trigger: 'trainee',
          withdrawal_future_interest: 'no',
          withdrawal_another_reason: 'Moved abroad',
        });
        if (version === 'v2025.0') expect(res.body.data.withdraw_reasons).toEqual(['trainee_chose_to_withdraw_another_reason']);
        const again = await api.request('POST', `${base}/${id}/withdraw`, token, {
          data: { [dateField]: '2026-01-10', trigger: 'provider', future_interest: 'no', reasons: ['mandatory_reasons'] },
        });
        expect(again.body).toEqual(ST);
      });

      it('lists every failed rule in one 422', async () => {
        const id = await newTrainee();
        const res = await api.request('POST', `${base}/${id}/withdraw`, token, {
          data: { trigger: 'someone', future_interest: 'maybe', reasons: [] },
        });
        expect(res.status).toBe(422);
        expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual(
          expect.arrayContaining([
            `${dateField} Choose a withdrawal date`,
            'reasons Choose one or more reasons why the trainee withdrew from the course',
            'trigger is not included in the list',
            'future_interest is not included in the list',
          ]),
        );
      });

      it('takes safeguarding_concerns as a reason only in v2026.1, where it needs the concerns (docs/DESIGN.md ruling 7)', async () => {
        const id = await newTrainee();
        const data = { [dateField]: '2026-01-10', trigger: 'provider', future_interest: 'unknown', reasons: ['safeguarding_concerns'] };
        const res = await api.request('POST', `${base}/${id}/withdraw`, token, { data });
        expect(res.status).toBe(422);
        const messages = res.body.errors.map((e: { message: string }) => e.message);
        if (version === 'v2025.0')
          expect(messages).toEqual(['reasons entered not valid for selected trigger eg unacceptable_behaviour for a trainee trigger']);
        else {
          expect(messages).toEqual(['safeguarding_concern_reasons Enter the concerns']);
          const ok = await api.request('POST', `${base}/${id}/withdraw`, token, {
            data: { ...data, safeguarding_concern_reasons: 'Details' },
          });
          expect(ok.status).toBe(200);
          expect(ok.body.data.withdrawal_safeguarding_concern_reasons).toBe('Details');
        }
      });

      it('refuses to withdraw a trainee whose ITT has not started (StateTransitionError, whatever the body)', async () => {
        const future = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
        const id = await newTrainee({
          itt_start_date: future,
          trainee_start_date: future,
          itt_end_date: `${Number(future.slice(0, 4)) + 2}-07-31`,
        });
        const res = await api.request('POST', `${base}/${id}/withdraw`, token, { data: { nothing: true } });
        expect(res.status).toBe(422);
        expect(res.body).toEqual(ST);
      });

      it(`then ${version === 'v2026.1' ? 'refuses' : 'still accepts'} updates of the trainee, its placements and degrees (docs/reference/API-FACTS.md §7.2, §10.6, §11.8)`, async () => {
        const id = await newTrainee();
        await api.request('POST', `${base}/${id}/withdraw`, token, {
          data: { [dateField]: '2026-01-10', trigger: 'provider', future_interest: 'no', reasons: ['record_added_in_error'] },
        });
        const writes = [
          await api.request('PATCH', `${base}/${id}`, token, { data: { middle_names: 'Kim' } }),
          await api.request('POST', `${base}/${id}/placements`, token, { data: { name: 'Elm School' } }),
          await api.request('POST', `${base}/${id}/degrees`, token, {
            data: { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: '2011' },
          }),
        ];
        if (version === 'v2026.1') for (const w of writes) expect(w.body).toEqual(ST);
        else expect(writes.map((w) => w.status)).toEqual([200, 201, 201]);
      });
    });

    describe('recommend for QTS', () => {
      it('recommends: 202, recommended_for_award with outcome_date and recommended_for_award_at (no fraction)', async () => {
        const id = await newTrainee();
        const res = await api.request('POST', `${base}/${id}/recommend-for-qts`, token, { data: { qts_standards_met_date: today() } });
        expect(res.status).toBe(202);
        expect(res.body.data).toMatchObject({ state: 'recommended_for_award', outcome_date: today() });
        expect(res.body.data.recommended_for_award_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      });

      it('answers 422 listing every failed rule', async () => {
        const id = await newTrainee({ placements_attributes: [] });
        const res = await api.request('POST', `${base}/${id}/recommend-for-qts`, token, { data: { qts_standards_met_date: '2020-01-01' } });
        expect(res.status).toBe(422);
        expect(res.body.errors.map((e: { message: string }) => e.message)).toEqual(
          expect.arrayContaining([
            'qts_standards_met_date must be after itt_start_date',
            expect.stringMatching(/^placements must be at least 2 for the /),
          ]),
        );
        const blank = await api.request('POST', `${base}/${id}/recommend-for-qts`, token, { data: { qts_standards_met_date: '' } });
        expect(blank.body.errors.map((e: { message: string }) => e.message)).toContain(
          "qts_standards_met_date can't be blank. Enter a date the trainee met the QTS or EYTS requirements.",
        );
      });

      it('refuses a deferred trainee with StateTransitionError (ruling 8)', async () => {
        const id = await newTrainee();
        await api.request('POST', `${base}/${id}/defer`, token, { data: { defer_date: '2026-01-05' } });
        const res = await api.request('POST', `${base}/${id}/recommend-for-qts`, token, { data: { qts_standards_met_date: today() } });
        expect(res.body).toEqual(ST);
      });

      it(`answers update-qts-or-eyts-status ${version === 'v2026.1' ? 'as recommend-for-qts' : 'with 404 Not found'}`, async () => {
        const id = await newTrainee();
        const res = await api.request('POST', `${base}/${id}/update-qts-or-eyts-status`, token, {
          data: { qts_standards_met_date: today() },
        });
        if (version === 'v2026.1') expect(res).toMatchObject({ status: 202, body: { data: { state: 'recommended_for_award' } } });
        else expect(res).toMatchObject({ status: 404, body: { errors: [{ error: 'NotFound', message: 'Not found' }] } });
      });

      it('answers 404 for an unknown trainee on every action', async () => {
        for (const action of ['defer', 'withdraw', 'recommend-for-qts']) {
          const res = await api.request('POST', `${base}/unknownTraineeId12345678/${action}`, token, {
            data: { defer_date: '2026-01-01' },
          });
          expect(res.status).toBe(404);
          expect(res.body.errors[0].message).toBe('Trainee(s) not found');
        }
      });
    });
  },
);

describe.each<Version>(['v2025.0', 'v2026.1'])('a trainee through the sandbox registry in %s: TRN, recommendation, award', (version) => {
  let api: RunningApi;
  let token: string;
  const base = `/api/${version}/trainees`;

  beforeAll(async () => {
    api = await RunningApi.start({ registryTrnDelayMs: 0 });
    token = await api.providerToken('10000081');
  });
  afterAll(() => api.close());

  it('is visible at each step through GET and the status and has_trn filters', async () => {
    const created = await api.request('POST', base, token, uniqueTrainee(version, { placements_attributes: TWO_PLACEMENTS }));
    const id = created.body.data.trainee_id;
    const ids = async (query: string) => {
      const r = await api.request('GET', `${base}?academic_cycle=2025&${query}`, token);
      return r.status === 200 ? r.body.data.map((t: { trainee_id: string }) => t.trainee_id) : [];
    };

    const withTrn = await eventually(
      () => api.request('GET', `${base}/${id}`, token),
      (r) => r.body.data.trn !== null,
    );
    expect(withTrn.body.data).toMatchObject({ state: 'trn_received', trn: expect.stringMatching(/^\d{7}$/) });
    expect(await ids('has_trn=true')).toContain(id);
    expect(await ids('has_trn=false')).not.toContain(id);
    expect(await ids('status=in_training')).toContain(id);

    const recommended = await api.request('POST', `${base}/${id}/recommend-for-qts`, token, { data: { qts_standards_met_date: today() } });
    expect(recommended.status).toBe(202);
    const awarded = await eventually(
      () => api.request('GET', `${base}/${id}`, token),
      (r) => r.body.data.state === 'awarded',
    );
    expect(awarded.body.data).toMatchObject({ state: 'awarded', awarded_at: `${today()}T00:00:00.000Z`, trn: withTrn.body.data.trn });
    expect(await ids('status=awarded')).toContain(id);
    expect(await ids('status=in_training')).not.toContain(id);
  });
});
