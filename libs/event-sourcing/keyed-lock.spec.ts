import { KeyedLock } from './keyed-lock';

const tick = () => new Promise((r) => setImmediate(r));

describe('KeyedLock', () => {
  it('runs work for one key one at a time, in order, even when some fail', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    let active = 0;
    let maxActive = 0;
    const job = (name: string, fail = false) =>
      lock.run('k', async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        active--;
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([job('a'), job('b', true), job('c')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(maxActive).toBe(1);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('lets different keys run at the same time', async () => {
    const lock = new KeyedLock();
    let active = 0;
    let maxActive = 0;
    const job = (key: string) =>
      lock.run(key, async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await tick();
        active--;
      });
    await Promise.all([job('a'), job('b'), job('c')]);
    expect(maxActive).toBe(3);
  });
});
