/**
 * Runs the window counter contract (test/contract/window-counter.contract.ts) against the counter
 * in the process's memory (one API replica: nothing is shared, so the replicas' case does not apply).
 */
import { MemoryWindowCounter } from '@app/runtime/admission';
import { describeWindowCounterContract } from './window-counter.contract';

describeWindowCounterContract(
  'MemoryWindowCounter',
  async () => ({ counter: new MemoryWindowCounter(), cleanup: async () => undefined }),
  false,
);
