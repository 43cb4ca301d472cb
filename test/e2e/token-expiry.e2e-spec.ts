import { londonDate, ProviderOperations } from '@app/providers/write';
import { addMonths } from '@app/calendar';
import { providerStreamId } from '@app/providers/decider';
import { PROVIDER_READ_MODEL } from '@app/providers/read';
import { TokenUse } from '../../apps/api/src/auth/token-use';
import { RunningApi } from '../support/api-harness';

const DAY_MS = 86_400_000;

/** Polls `check` every 10 ms until it holds, at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 2000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 10))) if (await check()) return true;
  return check();
}

describe('token expiry and last use (docs/reference/API-FACTS.md §2.4, §2.6, §2.7)', () => {
  let api: RunningApi;
  const ukprn = '10000040';
  const info = (token: string) => api.request('GET', '/api/v2025.0/info', token);
  const usedEvents = async (tokenId: string) =>
    (await api.infra.eventStore.readStream(providerStreamId(ukprn))).filter(
      (e) => e.type === 'TokenUsed' && (e.data as { token_id: string }).token_id === tokenId,
    );

  beforeAll(async () => {
    api = await RunningApi.start();
    await api.infra.providers.addProvider(ukprn, 'Expiry SCITT');
  });
  afterAll(() => api.close());
  afterEach(() => (api.app.get(TokenUse).clock = () => new Date()));

  it('accepts a token expiring tomorrow and refuses it from its expiry date on, as any bad token', async () => {
    const tomorrow = londonDate(new Date(Date.now() + DAY_MS));
    const issued = await api.infra.providers.issueToken(ukprn, 'sandbox', tomorrow);
    await api.infra.catchUp();
    expect((await info(issued.token)).status).toBe(200);
    api.app.get(TokenUse).clock = () => new Date(Date.now() + 2 * DAY_MS);
    const res = await info(issued.token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
  });

  it('refuses a token whose default six-month expiry passed', async () => {
    const sevenMonthsAgo = new Date(`${addMonths(londonDate(new Date()), -7)}T12:00:00.000Z`);
    const past = new ProviderOperations(api.infra.eventStore, api.app.get(PROVIDER_READ_MODEL), () => sevenMonthsAgo);
    const issued = await past.issueToken(ukprn, 'sandbox');
    await api.infra.catchUp();
    expect(issued.expires_at < londonDate(new Date())).toBe(true);
    const res = await info(issued.token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
    expect(await usedEvents(issued.token_id)).toHaveLength(0);
  });

  it('records the use of a token once a day, whatever the number of requests, and again the next day', async () => {
    const issued = await api.infra.providers.issueToken(ukprn, 'sandbox');
    await api.infra.catchUp();
    expect((await api.infra.readModel.getToken(issued.token_id))?.last_used_at).toBeNull();
    const statuses = await Promise.all(Array.from({ length: 5 }, () => info(issued.token)));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await eventually(async () => (await usedEvents(issued.token_id)).length > 0)).toBe(true);
    await api.infra.catchUp();
    const first = await api.infra.readModel.getToken(issued.token_id);
    expect(first?.last_used_at).not.toBeNull();
    expect((await info(issued.token)).status).toBe(200);
    await api.infra.catchUp();
    expect(await usedEvents(issued.token_id)).toHaveLength(1);

    const nextDay = new Date(Date.now() + DAY_MS);
    api.app.get(TokenUse).clock = () => nextDay;
    expect((await info(issued.token)).status).toBe(200);
    expect(await eventually(async () => (await usedEvents(issued.token_id)).length === 2)).toBe(true);
    await api.infra.catchUp();
    expect((await api.infra.readModel.getToken(issued.token_id))?.last_used_at).toBe(nextDay.toISOString());
  });
});
