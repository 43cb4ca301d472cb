import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlitePageSessionStore } from '@app/stores/sqlite';
import {
  clientOf,
  csrfTokenMatches,
  PageSessions,
  SESSION_BOUNDS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  SESSION_SWEEP_MS,
  SESSION_TOUCH_MS,
  type PageSession,
  type SignedInAs,
} from './page-sessions';

const A = '10000001';
const B = '10000002';
const HERE = '192.0.2.1';
const as = (ukprn: string): SignedInAs => ({ ukprn, providerName: null, by: 'person', userId: `user-of-${ukprn}`, role: 'uploader' });

describe('PageSessions', () => {
  let now = 0;
  let dir: string;
  let held: PageSessions[] = [];
  /** Sessions over a store on `dir`'s state file: each call another connection, as another API process has. */
  const sessions = (bounds = SESSION_BOUNDS) => {
    const s = new PageSessions(SqlitePageSessionStore.open(dir), { now: () => now, bounds });
    held.push(s);
    return s;
  };
  const signedIn = async (s: PageSessions, ukprn: string, address = HERE) => s.signIn(await s.start(address), as(ukprn));
  const live = async (s: PageSessions, list: PageSession[]) => {
    let n = 0;
    for (const x of list) if ((await s.find(x.id)) !== null) n++;
    return n;
  };

  beforeEach(() => {
    now = Date.now();
    dir = mkdtempSync(join(tmpdir(), 'page-sessions-'));
  });
  afterEach(async () => {
    for (const s of held) await s.close();
    held = [];
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds a live session, ends it on sign-out, and gives a new id and CSRF token on sign-in', async () => {
    const s = sessions();
    const anonymous = await s.start(HERE);
    expect(await s.find(anonymous.id)).toEqual(anonymous);
    const session = await s.signIn(anonymous, as(A));
    expect(session.id).not.toBe(anonymous.id);
    expect(session.csrfToken).not.toBe(anonymous.csrfToken);
    expect(await s.find(anonymous.id)).toBeNull();
    expect((await s.find(session.id))?.signedIn).toEqual(as(A));
    await s.end(session.id);
    expect(await s.find(session.id)).toBeNull();
    expect(await s.find(undefined)).toBeNull();
  });

  it('keeps a pending sign-in with the session, and a session started by one process is found, then ended, by another', async () => {
    const here = sessions();
    const there = sessions();
    const session = await here.start(HERE);
    const login = { state: 's', nonce: 'n', codeVerifier: 'v' };
    expect(await here.beginLogin(session, login)).toEqual({ ...session, login });
    expect((await there.find(session.id))?.login).toEqual(login);
    await there.end(session.id);
    expect(await here.find(session.id)).toBeNull();
    expect(await here.beginLogin(session, login)).toBeNull();
  });

  it('ends a session idle too long, and one too old however used', async () => {
    const s = sessions();
    const idle = await signedIn(s, A);
    const busy = await signedIn(s, A);
    now += SESSION_IDLE_MS - 1;
    expect(await s.find(busy.id)).not.toBeNull();
    now += 2;
    expect(await s.find(idle.id)).toBeNull();
    for (let t = 0; t < SESSION_MAX_MS; t += SESSION_IDLE_MS / 2) {
      now += SESSION_IDLE_MS / 2;
      if (now - busy.startedAt < SESSION_MAX_MS) expect(await s.find(busy.id)).not.toBeNull();
    }
    expect(await s.find(busy.id)).toBeNull();
  });

  it('moves the idle expiry only when a use comes a minute or more after the last move', async () => {
    const s = sessions();
    const session = await signedIn(s, A);
    now += SESSION_TOUCH_MS - 1;
    await s.find(session.id);
    now = session.startedAt + SESSION_IDLE_MS;
    expect(await s.find(session.id)).toBeNull();
    const again = await signedIn(s, A);
    now += SESSION_TOUCH_MS;
    await s.find(again.id);
    now = again.startedAt + SESSION_IDLE_MS;
    expect(await s.find(again.id)).not.toBeNull();
  });

  it('provider A signing in 10,001 times does not sign provider B out, and A keeps its newest 50', async () => {
    const s = sessions();
    const b = await signedIn(s, B);
    const a: PageSession[] = [];
    for (let i = 0; i < 10_001; i++) a.push(await signedIn(s, A));
    expect((await s.find(b.id))?.signedIn?.ukprn).toBe(B);
    expect((await s.counts()).signedIn).toBe(SESSION_BOUNDS.perProvider + 1);
    expect(await live(s, a.slice(-SESSION_BOUNDS.perProvider))).toBe(SESSION_BOUNDS.perProvider);
    expect(await live(s, a.slice(0, -SESSION_BOUNDS.perProvider))).toBe(0);
  });

  it('holds 20 sign-in forms an address, its oldest going first, never another address’s or a signed-in session', async () => {
    const s = sessions();
    const session = await signedIn(s, A);
    const elsewhere = await s.start('198.51.100.7');
    const forms: PageSession[] = [];
    for (let i = 0; i < 1_000; i++) forms.push(await s.start(HERE));
    expect(await live(s, forms)).toBe(SESSION_BOUNDS.perAddress);
    expect(await s.find(forms[forms.length - 1].id)).not.toBeNull();
    expect(await s.find(forms[0].id)).toBeNull();
    expect(await s.find(elsewhere.id)).not.toBeNull();
    expect(await s.find(session.id)).not.toBeNull();
  });

  it('counts an IPv6 network’s forms together, by its /64', async () => {
    const s = sessions();
    const forms: PageSession[] = [];
    for (let i = 0; i < 100; i++) forms.push(await s.start(`2001:db8:0:7::${i.toString(16)}`));
    const elsewhere = await s.start('2001:db8:0:8::1');
    expect(await live(s, forms)).toBe(SESSION_BOUNDS.perAddress);
    expect(await s.find(elsewhere.id)).not.toBeNull();
  });

  it('stores the id’s hash and what the session holds, never the id itself', async () => {
    const s = sessions();
    const session = await signedIn(s, A);
    const { Database } = await import('@app/sqlite');
    const db = new Database(join(dir, 'state.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT key, data FROM page_sessions').all() as { key: string; data: string }[];
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(session.id);
      expect(JSON.parse(rows[0].data).signedIn).toEqual(as(A));
    } finally {
      db.close();
    }
  });

  it('matches the CSRF token exactly', async () => {
    const session = await sessions().start(HERE);
    expect(csrfTokenMatches(session, session.csrfToken)).toBe(true);
    expect(csrfTokenMatches(session, session.csrfToken.slice(1))).toBe(false);
    const last = session.csrfToken.endsWith('A') ? 'B' : 'A';
    expect(csrfTokenMatches(session, `${session.csrfToken.slice(0, -1)}${last}`)).toBe(false);
    expect(csrfTokenMatches(session, undefined)).toBe(false);
    expect(csrfTokenMatches(session, ['x'])).toBe(false);
  });
});

describe('PageSessions’ sweep', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'page-sessions-sweep-'));
  });
  afterEach(() => {
    jest.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes the expired sessions on its timer, from startSweeping until close', async () => {
    let now = Date.now();
    const s = new PageSessions(SqlitePageSessionStore.open(dir), { now: () => now });
    const idle = await s.signIn(await s.start(HERE), as(A));
    await s.start(HERE);
    const busy = await s.signIn(await s.start(HERE), as(B));
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const failures: unknown[] = [];
    s.startSweeping((err) => failures.push(err));
    expect(jest.getTimerCount()).toBe(1);
    now += SESSION_IDLE_MS - SESSION_TOUCH_MS;
    await s.find(busy.id);
    now += SESSION_TOUCH_MS + 1;
    await jest.advanceTimersByTimeAsync(SESSION_SWEEP_MS);
    // Swept by the timer, not found: nothing else looked at them.
    expect(await s.counts()).toEqual({ signedIn: 1, anonymous: 0 });
    expect([await s.find(idle.id), (await s.find(busy.id))?.id, failures]).toEqual([null, busy.id, []]);
    await s.close();
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('PageSessions’ sweep timer', () => {
  it('keeps no process alive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'page-sessions-timer-'));
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const s = new PageSessions(SqlitePageSessionStore.open(dir));
    s.startSweeping(() => undefined);
    try {
      expect(timers()).toBe(before);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('clientOf', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8:0:7::1', '2001:db8:0:7::/64'],
    ['2001:0DB8:0000:0007:1:2:3:4', '2001:db8:0:7::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['1:2:3:4:5:6:192.0.2.1', '1:2:3:4::/64'],
    ['unknown', 'unknown'],
  ])('counts %s as %s', (address, client) => {
    expect(clientOf(address)).toBe(client);
  });
});
