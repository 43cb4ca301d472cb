import type { KeyObject } from 'node:crypto';
import { LogDoesNotVerify, type ScheduledDigest } from '@app/audit';
import { startWorker } from '../start-worker';
import type { DigestJob } from './digest.worker';

type FromDigester = { signed: ScheduledDigest | null } | { error: string; faults: number | null };

/**
 * The next scheduled digest (`digestSince`) on a thread of its own, so the HTTP thread only waits (docs/DESIGN.md "Scheduled
 * digests"); null when the log had not moved. {@link LogDoesNotVerify}, or the thread's error; settles once the thread has exited.
 */
export function digestInThread(dataDir: string, privateKey: KeyObject, by: string): Promise<ScheduledDigest | null> {
  const job: DigestJob = { dataDir, keyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), by };
  return new Promise((resolve, reject) => {
    let answer: FromDigester | null = null;
    const worker = startWorker(__dirname, 'digest', { job });
    worker.on('message', (m: FromDigester) => (answer = m));
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (answer && 'signed' in answer) resolve(answer.signed);
      else if (answer && answer.faults !== null) reject(new LogDoesNotVerify(answer.faults));
      else reject(new Error(answer ? answer.error : `the digest thread stopped with code ${code}`));
    });
  });
}
