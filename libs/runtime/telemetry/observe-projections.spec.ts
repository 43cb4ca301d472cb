import { CheckpointAheadOfLog, LOG_START, logPosition, type StoredLog } from '@app/event-sourcing';
import { CHECKPOINT_AHEAD_OF_LOG, type ProjectorHandle, type ProjectorHealth } from '@app/runtime/projector';
import { parseExposition } from '../../../test/support/metrics-scrape';
import { Metrics } from './metrics';
import { observeProjections } from './observe-projections';

const log = { headPosition: async () => LOG_START, readAll: async () => [], readStream: async () => [] } as unknown as StoredLog;

describe('observeProjections (docs/observability.md "Metrics")', () => {
  it('sets trainee_records_checkpoint_ahead_of_log by consumer: the projector stopped on it, the dispatcher not started', async () => {
    const metrics = new Metrics(['projector'], { warn: () => undefined }, { processMetrics: false });
    const failure = { kind: 'subscription' as const, message: 'ahead', attempts: 0, since: '2026-01-01T00:00:00Z' };
    let health: ProjectorHealth = { state: 'failed', checkpoint: logPosition(9), failure: { ...failure, code: CHECKPOINT_AHEAD_OF_LOG } };
    const dispatcher = { aheadOfLog: null as CheckpointAheadOfLog | null };
    const projector = { health: () => health } as unknown as ProjectorHandle;
    observeProjections(metrics, {
      storedLog: log,
      readModel: {},
      projector,
      registryProcess: null,
      webhookOutbox: null,
      webhookDispatcher: dispatcher,
    });
    const scrape = async () => {
      const s = parseExposition(await metrics.exposition());
      return [
        s.sum('trainee_records_checkpoint_ahead_of_log', { consumer: 'projector' }),
        s.sum('trainee_records_checkpoint_ahead_of_log', { consumer: 'webhook_dispatcher' }),
      ];
    };
    expect(await scrape()).toEqual([1, 0]);

    health = { state: 'failed', checkpoint: logPosition(9), failure };
    dispatcher.aheadOfLog = new CheckpointAheadOfLog('the webhook dispatcher', logPosition(9), logPosition(1), 'reset');
    expect(await scrape()).toEqual([0, 1]);
  });
});
