import { csrfTokenMatches, PageSessions, SESSION_IDLE_MS, SESSION_MAX_MS, SESSIONS_MAX } from './page-sessions';

describe('PageSessions', () => {
  let now = 0;
  const sessions = () => new PageSessions(() => now);

  beforeEach(() => {
    now = 1_000_000;
  });

  it('finds a live session, ends it on sign-out, and gives a new id and CSRF token on sign-in', () => {
    const s = sessions();
    const anonymous = s.start();
    expect(s.find(anonymous.id)).toBe(anonymous);
    const signedIn = s.signIn(anonymous, '10000001', 'hash');
    expect(signedIn.id).not.toBe(anonymous.id);
    expect(signedIn.csrfToken).not.toBe(anonymous.csrfToken);
    expect(s.find(anonymous.id)).toBeNull();
    expect(s.find(signedIn.id)?.signedIn).toEqual({ ukprn: '10000001', tokenHash: 'hash' });
    s.end(signedIn.id);
    expect(s.find(signedIn.id)).toBeNull();
    expect(s.find(undefined)).toBeNull();
  });

  it('ends a session idle too long, and one too old however used', () => {
    const s = sessions();
    const idle = s.signIn(s.start(), '10000001', 'h');
    const busy = s.signIn(s.start(), '10000001', 'h');
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

  it('holds at most SESSIONS_MAX sessions not signed in, without pushing out a signed-in one', () => {
    const s = sessions();
    const signedIn = s.signIn(s.start(), '10000001', 'h');
    const first = s.start();
    for (let i = 0; i < SESSIONS_MAX; i++) s.start();
    expect(s.find(first.id)).toBeNull();
    expect(s.find(signedIn.id)).not.toBeNull();
  });

  it('matches the CSRF token exactly', () => {
    const session = sessions().start();
    expect(csrfTokenMatches(session, session.csrfToken)).toBe(true);
    expect(csrfTokenMatches(session, session.csrfToken.slice(1))).toBe(false);
    const last = session.csrfToken.endsWith('A') ? 'B' : 'A';
    expect(csrfTokenMatches(session, `${session.csrfToken.slice(0, -1)}${last}`)).toBe(false);
    expect(csrfTokenMatches(session, undefined)).toBe(false);
    expect(csrfTokenMatches(session, ['x'])).toBe(false);
  });
});
