import {
  clientOf,
  csrfTokenMatches,
  PageSessions,
  SESSION_BOUNDS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  SESSION_SWEEP_MS,
  type PageSession,
} from './page-sessions';

const A = '10000001';
const B = '10000002';
const HERE = '192.0.2.1';

describe('PageSessions', () => {
  let now = 0;
  let held: PageSessions[] = [];
  const sessions = (bounds = SESSION_BOUNDS) => {
    const s = new PageSessions({ now: () => now, bounds });
    held.push(s);
    return s;
  };
  const signedIn = (s: PageSessions, ukprn: string, address = HERE) => s.signIn(s.start(address), ukprn, 'hash');
  const live = (s: PageSessions, list: PageSession[]) => list.filter((x) => s.find(x.id) !== null).length;

  beforeEach(() => {
    now = 1_000_000;
  });
  afterEach(() => {
    for (const s of held) s.close();
    held = [];
  });

  it('finds a live session, ends it on sign-out, and gives a new id and CSRF token on sign-in', () => {
    const s = sessions();
    const anonymous = s.start(HERE);
    expect(s.find(anonymous.id)).toBe(anonymous);
    const session = s.signIn(anonymous, A, 'hash');
    expect(session.id).not.toBe(anonymous.id);
    expect(session.csrfToken).not.toBe(anonymous.csrfToken);
    expect(s.find(anonymous.id)).toBeNull();
    expect(s.find(session.id)?.signedIn).toEqual({ ukprn: A, tokenHash: 'hash' });
    s.end(session.id);
    expect(s.find(session.id)).toBeNull();
    expect(s.find(undefined)).toBeNull();
  });

  it('ends a session idle too long, and one too old however used', () => {
    const s = sessions();
    const idle = signedIn(s, A);
    const busy = signedIn(s, A);
    now += SESSION_IDLE_MS - 1;
    expect(s.find(busy.id)).not.toBeNull();
    now += 2;
    expect(s.find(idle.id)).toBeNull();
    for (let t = 0; t < SESSION_MAX_MS; t += SESSION_IDLE_MS / 2) {
      now += SESSION_IDLE_MS / 2;
      if (now - busy.startedAt <= SESSION_MAX_MS) expect(s.find(busy.id)).not.toBeNull();
    }
    expect(s.find(busy.id)).toBeNull();
  });

  it('provider A signing in 10,001 times does not sign provider B out, and A keeps its newest 50', () => {
    const s = sessions();
    const b = signedIn(s, B);
    const a = Array.from({ length: 10_001 }, () => signedIn(s, A));
    expect(s.find(b.id)?.signedIn?.ukprn).toBe(B);
    expect(s.counts.signedIn).toBe(SESSION_BOUNDS.perProvider + 1);
    expect(live(s, a.slice(-SESSION_BOUNDS.perProvider))).toBe(SESSION_BOUNDS.perProvider);
    expect(live(s, a.slice(0, -SESSION_BOUNDS.perProvider))).toBe(0);
  });

  it('holds 20 sign-in forms an address, its oldest going first, never another address’s or a signed-in session', () => {
    const s = sessions();
    const session = signedIn(s, A);
    const elsewhere = s.start('198.51.100.7');
    const forms = Array.from({ length: 1_000 }, () => s.start(HERE));
    expect(live(s, forms)).toBe(SESSION_BOUNDS.perAddress);
    expect(s.find(forms[forms.length - 1].id)).not.toBeNull();
    expect(s.find(forms[0].id)).toBeNull();
    expect(s.find(elsewhere.id)).not.toBeNull();
    expect(s.find(session.id)).not.toBeNull();
  });

  it('counts an IPv6 network’s forms together, by its /64', () => {
    const s = sessions();
    const forms = Array.from({ length: 100 }, (_, i) => s.start(`2001:db8:0:7::${i.toString(16)}`));
    const elsewhere = s.start('2001:db8:0:8::1');
    expect(live(s, forms)).toBe(SESSION_BOUNDS.perAddress);
    expect(s.find(elsewhere.id)).not.toBeNull();
  });

  it('at the bound in all, ends expired sessions first, then the oldest of the provider holding the most', () => {
    const s = sessions({ perProvider: 3, perAddress: 3, signedIn: 5, anonymous: 5 });
    const old = signedIn(s, A);
    now += SESSION_IDLE_MS + 1;
    const a = [signedIn(s, A), signedIn(s, A)];
    const b = [signedIn(s, B), signedIn(s, B)];
    // Full (5): the expired one goes.
    const c = signedIn(s, '10000003');
    expect(s.find(old.id)).toBeNull();
    expect(live(s, [...a, ...b, c])).toBe(5);
    // Full, nothing expired: A and B hold 2 each, C 1; C's newcomer takes from the first of the largest, A.
    const c2 = signedIn(s, '10000003');
    expect([s.find(a[0].id), s.find(a[1].id)?.id, live(s, b), live(s, [c, c2])]).toEqual([null, a[1].id, 2, 2]);
    // Now B holds the most alone: A's newcomer takes B's oldest, not its own.
    const a2 = signedIn(s, A);
    expect([live(s, a), live(s, [a2]), s.find(b[0].id), live(s, [b[1]]), live(s, [c, c2])]).toEqual([1, 1, null, 1, 2]);
    // A tie with the newcomer's own provider: its own oldest goes.
    const c3 = signedIn(s, '10000003');
    expect([s.find(c.id), live(s, [c2, c3]), live(s, [a[1], a2, b[1]])]).toEqual([null, 2, 3]);
  });

  it('matches the CSRF token exactly', () => {
    const session = sessions().start(HERE);
    expect(csrfTokenMatches(session, session.csrfToken)).toBe(true);
    expect(csrfTokenMatches(session, session.csrfToken.slice(1))).toBe(false);
    const last = session.csrfToken.endsWith('A') ? 'B' : 'A';
    expect(csrfTokenMatches(session, `${session.csrfToken.slice(0, -1)}${last}`)).toBe(false);
    expect(csrfTokenMatches(session, undefined)).toBe(false);
    expect(csrfTokenMatches(session, ['x'])).toBe(false);
  });
});

describe('PageSessions’ sweep', () => {
  afterEach(() => jest.useRealTimers());

  it('runs only while a session is held, and ends the expired ones', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const s = new PageSessions();
    expect(jest.getTimerCount()).toBe(0);
    const idle = s.signIn(s.start(HERE), A, 'h');
    const form = s.start(HERE);
    const busy = s.signIn(s.start(HERE), B, 'h');
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(SESSION_IDLE_MS - SESSION_SWEEP_MS);
    s.find(busy.id);
    jest.advanceTimersByTime(2 * SESSION_SWEEP_MS);
    // Swept by the timer, not found: nothing else looked at them.
    expect(s.counts).toEqual({ signedIn: 1, anonymous: 0 });
    expect([s.find(idle.id), s.find(form.id), s.find(busy.id)?.id]).toEqual([null, null, busy.id]);
    jest.advanceTimersByTime(SESSION_IDLE_MS + SESSION_SWEEP_MS);
    expect(s.counts).toEqual({ signedIn: 0, anonymous: 0 });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('stops when the last session ends, and starts again with the next', () => {
    jest.useFakeTimers();
    const s = new PageSessions();
    const session = s.start(HERE);
    expect(jest.getTimerCount()).toBe(1);
    s.end(session.id);
    expect(jest.getTimerCount()).toBe(0);
    s.start(HERE);
    expect(jest.getTimerCount()).toBe(1);
    s.close();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('keeps no process alive', () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const s = new PageSessions();
    s.start(HERE);
    expect(timers()).toBe(before);
    s.close();
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
