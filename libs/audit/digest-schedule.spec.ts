import { generateKeyPairSync } from 'node:crypto';
import { logPosition } from '@app/event-sourcing';
import { signDigest } from './digest';
import { LogDoesNotVerify } from './digest-log';
import { DigestSchedule, type ScheduledDigest } from './digest-schedule';

const { privateKey } = generateKeyPairSync('ed25519');
const signed = (position: number): ScheduledDigest => ({
  digest: signDigest({ position: logPosition(position), time: '2026-11-26T12:00:00.000Z', streams: 1, root: 'a'.repeat(64) }, privateKey),
  recordedAt: position + 1,
});

function logger() {
  const lines: [string, string, object][] = [];
  const at = (level: string) => (context: object, message: string) => lines.push([level, message, context]);
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('DigestSchedule', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs once a period, timed from the end of the last run, and not before start', async () => {
    const answers = [signed(10), null, signed(20)];
    const run = jest.fn(async () => answers.shift() ?? null);
    const { lines, log } = logger();
    const schedule = new DigestSchedule(run, 60_000, log);
    await jest.advanceTimersByTimeAsync(120_000);
    expect(run).not.toHaveBeenCalled();
    schedule.start();
    await jest.advanceTimersByTimeAsync(59_999);
    expect(run).toHaveBeenCalledTimes(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(120_000);
    expect(run).toHaveBeenCalledTimes(3);
    expect(schedule.counts).toEqual({ signed: 2, idle: 1, failed: 0 });
    expect(lines.filter(([, m]) => m === 'audit digest signed').map(([, , c]) => (c as { position: number }).position)).toEqual([10, 20]);
    await schedule.stop();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('goes on after a failed run, and says a log that does not verify is an error', async () => {
    const failures: Error[] = [new LogDoesNotVerify(2), new Error('disk full')];
    const run = jest.fn(async () => {
      const failure = failures.shift();
      if (failure) throw failure;
      return signed(5);
    });
    const { lines, log } = logger();
    const schedule = new DigestSchedule(run, 60_000, log);
    schedule.start();
    await jest.advanceTimersByTimeAsync(180_000);
    expect(schedule.counts).toEqual({ signed: 1, idle: 0, failed: 2 });
    expect(lines.map(([level, message]) => level + ': ' + message)).toEqual([
      'info: audit digests scheduled',
      'error: audit digest not signed: the log does not verify (run admin audit verify)',
      'warn: audit digest failed; the schedule goes on',
      'info: audit digest signed',
    ]);
    await schedule.stop();
  });

  it('runs one at a time: a run asked for while one runs joins it', async () => {
    let release: () => void = () => undefined;
    const run = jest.fn(() => new Promise<ScheduledDigest | null>((resolve) => (release = () => resolve(null))));
    const schedule = new DigestSchedule(run, 60_000, logger().log);
    const first = schedule.runNow();
    const second = schedule.runNow();
    expect(run).toHaveBeenCalledTimes(1);
    release();
    await Promise.all([first, second]);
    expect(schedule.counts.idle).toBe(1);
  });
});
