/**
 * The MongoDB adapters' suites run only against a real server, named by `MONGODB_URL`; there is
 * none on a machine without one, and a mock would prove nothing (docs/operations.md "Its tests").
 * Without it, a suite is reported as skipped, loudly: a warning line and a skipped test
 * whose title says why, never a silent pass.
 */

/**
 * `MONGODB_URL` when it is set; otherwise registers `title` as one skipped test named
 * `<what> SKIPPED: MONGODB_URL is not set (no server on this machine)`, warns the same, and
 * returns null (the caller then registers nothing else).
 */
export function mongoUrlOrSkip(title: string, what: string): string | null {
  const url = process.env.MONGODB_URL;
  if (url) return url;
  const skipped = `${what} SKIPPED: MONGODB_URL is not set (no server on this machine)`;
  describe(title, () => {
    console.warn(skipped);
    it.skip(skipped, () => undefined);
  });
  return null;
}
