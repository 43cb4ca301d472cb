import { CheckpointAheadOfLog, LOG_START, type LogPosition, type RecordedEvent, type StoredLog } from '@app/event-sourcing';
import { decodeWebhookEvent, WEBHOOK_STREAM_PREFIX } from '@app/webhooks/decider';
import { applyEndpointEvent } from './endpoint-deliveries';
import type { WebhookEndpointRecord, WebhookOutbox } from './webhook-outbox.port';

/** What mends an outbox ahead of the log: the command that runs {@link resetOutboxToLog}. */
export const OUTBOX_RESET = 'reset the webhook outbox to the log (admin webhook reset-outbox), with the service stopped';

/** Log events read per page while folding the endpoints. */
const PAGE = 1000;

/** What {@link resetOutboxToLog} found and did; positions as the stores gave them. */
export interface OutboxReset {
  /** The outbox's checkpoint before. */
  from: LogPosition;
  /** The log's head: the checkpoint after, when `reset`. */
  head: LogPosition;
  /** False: the checkpoint was not beyond the head, and nothing changed. */
  reset: boolean;
  /** Endpoints the log holds up to the head (when `reset`). */
  endpoints: number;
  /** Deliveries of positions after the head, dropped (when `reset`). */
  deliveriesDropped: number;
}

/**
 * The dispatcher's stored `checkpoint` as a {@link CheckpointAheadOfLog} when it is beyond the log's head (a MongoDB restored newer than
 * the EventStoreDB beside it); null otherwise. Reads the head only for a checkpoint past the start.
 */
export async function outboxAheadOfLog(checkpoint: LogPosition, log: StoredLog): Promise<CheckpointAheadOfLog | null> {
  if (checkpoint === LOG_START) return null;
  const head = await log.headPosition();
  return checkpoint > head ? new CheckpointAheadOfLog('the webhook dispatcher', checkpoint, head, OUTBOX_RESET) : null;
}

/**
 * Mends an outbox whose checkpoint is beyond the log's head (docs/operations.md "Backups and restore"): its endpoints become those the
 * log holds up to the head, deliveries of later positions (of events the log no longer has) are dropped, and the checkpoint is set to
 * the head, so the dispatcher goes on with the events appended next. An outbox not ahead is left as it is. Run with no dispatcher
 * running; throws the stores' errors.
 */
export async function resetOutboxToLog(outbox: WebhookOutbox, log: StoredLog): Promise<OutboxReset> {
  const from = await outbox.checkpoint();
  const head = await log.headPosition();
  if (from <= head) return { from, head, reset: false, endpoints: 0, deliveriesDropped: 0 };
  const endpoints = await endpointsUpTo(log, head);
  const deliveriesDropped = await outbox.resetTo({ checkpoint: head, endpoints });
  return { from, head, reset: true, endpoints: endpoints.length, deliveriesDropped };
}

/** Every endpoint as its events up to `head` leave it, in the order added. */
async function endpointsUpTo(log: StoredLog, head: LogPosition): Promise<WebhookEndpointRecord[]> {
  const endpoints = new Map<string, WebhookEndpointRecord>();
  for (const item of await webhookEventsUpTo(log, head)) {
    const event = decodeWebhookEvent(item);
    if (!event) continue;
    const record = applyEndpointEvent(endpoints.get(event.data.endpoint_id), event, item.position);
    if (record) endpoints.set(record.endpoint_id, record);
  }
  return [...endpoints.values()];
}

/** The endpoints' events up to `head`, in position order: stream by stream where the store can, else the filtered log. */
async function webhookEventsUpTo(log: StoredLog, head: LogPosition): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  if (log.readStreamsByPrefix) {
    for (let afterStream: string | null = null; ;) {
      const read = await log.readStreamsByPrefix({ streamPrefix: WEBHOOK_STREAM_PREFIX, afterStream, toPosition: head, maxCount: PAGE });
      if (read.length === 0) break;
      events.push(...read.filter((e) => e.position <= head));
      afterStream = read[read.length - 1].streamId;
    }
    return events.sort((a, b) => a.position - b.position);
  }
  const filter = { streamPrefixes: [WEBHOOK_STREAM_PREFIX] };
  for (let fromPosition = LOG_START; ;) {
    const read = await log.readAll({ fromPosition, maxCount: PAGE, filter });
    const upToHead = read.filter((e) => e.position <= head);
    events.push(...upToHead);
    if (read.length === 0 || upToHead.length < read.length) return events;
    fromPosition = read[read.length - 1].position;
  }
}
