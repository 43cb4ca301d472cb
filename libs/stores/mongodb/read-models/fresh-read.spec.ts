/**
 * The registry reads of the MongoDB read model (fresh-read.ts; docs/DESIGN.md "What the MongoDB
 * read model guarantees"): every caller gets a read sent after it asked, and concurrent callers
 * share reads. The read is a function the test settles by hand.
 */
import { FreshReads, readFollowingRegistry, RegistryFollower } from './fresh-read';

/** A read whose sends the test resolves or rejects one by one, in order; each send returns its number. */
function manualRead() {
  const sends: { resolve: (n: number) => void; reject: (e: Error) => void }[] = [];
  const send = () =>
    new Promise<number>((resolve, reject) => {
      const n = sends.length + 1;
      sends.push({ resolve: () => resolve(n), reject });
    });
  return { send, sends };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('FreshReads', () => {
  it('gives a caller a read sent after its call, never the one already in flight', async () => {
    const read = manualRead();
    const reads = new FreshReads(read.send);
    const first = reads.get();
    await turn();
    const second = reads.get();
    expect(read.sends).toHaveLength(1);

    read.sends[0].resolve(0);
    expect(await first).toBe(1);
    await turn();
    expect(read.sends).toHaveLength(2);
    read.sends[1].resolve(0);
    expect(await second).toBe(2);
  });

  it('shares one queued read among every caller that came while a read was in flight', async () => {
    const read = manualRead();
    const reads = new FreshReads(read.send);
    void reads.get();
    await turn();
    const waiting = [reads.get(), reads.get(), reads.get()];
    read.sends[0].resolve(0);
    await turn();
    read.sends[1].resolve(0);
    expect(await Promise.all(waiting)).toEqual([2, 2, 2]);
    expect(read.sends).toHaveLength(2);
  });

  it('rejects only the callers of a failed read; the next caller gets a new one', async () => {
    const read = manualRead();
    const reads = new FreshReads(read.send);
    const failed = reads.get();
    await turn();
    read.sends[0].reject(new Error('not primary'));
    await expect(failed).rejects.toThrow('not primary');

    const next = reads.get();
    await turn();
    read.sends[1].resolve(0);
    expect(await next).toBe(2);
  });

  it('starts the queued read even when the one in flight failed', async () => {
    const read = manualRead();
    const reads = new FreshReads(read.send);
    const failed = reads.get().catch((e: Error) => e.message);
    await turn();
    const queued = reads.get();
    read.sends[0].reject(new Error('network'));
    expect(await failed).toBe('network');
    await turn();
    read.sends[1].resolve(0);
    expect(await queued).toBe(2);
  });
});

/** A read model of two stores: registries are store names; `answers` says what each store holds. */
function follower(options: {
  known: string | null;
  registries: string[];
  answers: Record<string, string | null | Error>;
}): RegistryFollower<string, string | null> & { runs: string[]; registryReads: () => number } {
  const registries = [...options.registries];
  let reads = 0;
  const runs: string[] = [];
  return {
    known: options.known,
    fresh: async () => {
      reads++;
      const next = registries.shift();
      if (next === undefined) throw new Error('no more registry reads expected');
      return next;
    },
    storeOf: (registry) => registry,
    run: async (store) => {
      runs.push(store);
      const answer = options.answers[store];
      if (answer instanceof Error) throw answer;
      return answer;
    },
    isEmpty: (result) => result === null,
    isGone: (error) => error instanceof Error && error.message === 'collection dropped',
    runs,
    registryReads: () => reads,
  };
}

describe('readFollowingRegistry', () => {
  it('answers from the known store when a registry read sent with it still names that store', async () => {
    const f = follower({ known: 'v1', registries: ['v1'], answers: { v1: 'doc in v1' } });
    expect(await readFollowingRegistry(f)).toBe('doc in v1');
    expect(f.runs).toEqual(['v1']);
    expect(f.registryReads()).toBe(1);
  });

  it('reads again from the new store when the registry names another one (a swap since the known read)', async () => {
    const f = follower({ known: 'v1', registries: ['v2'], answers: { v1: 'stale doc', v2: 'doc in v2' } });
    expect(await readFollowingRegistry(f)).toBe('doc in v2');
    expect(f.runs).toEqual(['v1', 'v2']);
  });

  it('looks at the registry once more after finding nothing, and follows a swap and drop that happened meanwhile', async () => {
    const f = follower({ known: 'v1', registries: ['v1', 'v2'], answers: { v1: null, v2: 'doc in v2' } });
    expect(await readFollowingRegistry(f)).toBe('doc in v2');
    expect(f.runs).toEqual(['v1', 'v2']);
    expect(f.registryReads()).toBe(2);
  });

  it('answers nothing found when the store still serves after the read', async () => {
    const f = follower({ known: 'v1', registries: ['v1', 'v1'], answers: { v1: null } });
    expect(await readFollowingRegistry(f)).toBeNull();
    expect(f.runs).toEqual(['v1']);
  });

  it('follows the registry after a read whose store was dropped under it', async () => {
    const f = follower({ known: 'v1', registries: ['v1', 'v2'], answers: { v1: new Error('collection dropped'), v2: 'doc in v2' } });
    expect(await readFollowingRegistry(f)).toBe('doc in v2');
  });

  it("throws the read's own error when the store did not change, without another registry read", async () => {
    const f = follower({ known: 'v1', registries: ['v1'], answers: { v1: new Error('not primary') } });
    await expect(readFollowingRegistry(f)).rejects.toThrow('not primary');
    expect(f.registryReads()).toBe(1);
  });

  it('reads the registry first when it knows none', async () => {
    const f = follower({ known: null, registries: ['v2', 'v2'], answers: { v2: 'doc in v2' } });
    expect(await readFollowingRegistry(f)).toBe('doc in v2');
    expect(f.runs).toEqual(['v2']);
  });
});
