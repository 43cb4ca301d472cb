import { checkStreamChain } from '@app/event-sourcing';
import { rawEventStore } from '@app/personal-data';
import { digestSection, latestRecordedDigest, proofHolds, readStoredStream, type SignedDigest, type StreamHead } from '@app/runtime/audit';
import { openDigestTreeStore } from '@app/stores';
import { loadTraineeHistory } from '@app/trainees/read';
import { traineeStreamId } from '@app/trainees/decider';
import { API_VERSIONS } from '@app/trainees/record';
import { CliError, type CliContext } from '../cli-context';
import { renderHistoryReport, type HistoryReportInput } from './history-report';

/**
 * What `trainee history <trainee_id> --format html` reports (docs/operations.md "Trainee
 * history"), read from the event log alone in one opening of the stores: the trainee's stream
 * (personal values opened), the same stream as stored and its chain's check (`checkStreamChain`),
 * and the latest signed digest recorded in the log (`digestSection`), with whether the stream's head
 * is proven under its root by the kept tree's inclusion proof (`proofHolds`; null when the kept tree
 * is another digest's). {@link CliError} for an unknown trainee. Writes nothing.
 */
export async function loadHistoryReport(
  ctx: CliContext,
  traineeId: string,
  now: () => Date = () => new Date(),
): Promise<HistoryReportInput> {
  const input = await ctx.withStores(
    async (stores) => {
      const history = await loadTraineeHistory(stores.eventStore, traineeId, {
        resolveId: async (id) => (await stores.readModel.getTrainee(id))?.trainee_id ?? null,
      });
      if (!history) return null;
      const raw = rawEventStore(stores.eventStore);
      const streamId = traineeStreamId(history.traineeId);
      const stored = await readStoredStream(raw, streamId);
      const trees = await openDigestTreeStore({ dataDir: ctx.dataDir }, stores);
      const kept = await trees.latest(streamId).finally(() => trees.close());
      // The kept tree proves the head when it is the tree of the digest the report shows.
      const prove = (head: StreamHead, digest: SignedDigest) =>
        kept?.digest.signature !== digest.signature ? null : kept.inclusion !== null && proofHolds(head, digest, kept.inclusion);
      const digest = digestSection(await latestRecordedDigest(raw), stored, prove);
      return { history, chain: { ...checkStreamChain(stored), events: stored.length }, digest };
    },
    { catchUp: false },
  );
  if (!input) throw new CliError(`No trainee with id ${traineeId}`);
  return { ...input, apiVersion: API_VERSIONS[API_VERSIONS.length - 1], generatedAt: now().toISOString() };
}

/** Writes the HTML report of `traineeId` to stdout (see {@link loadHistoryReport}, `renderHistoryReport`). */
export async function writeHistoryReport(ctx: CliContext, traineeId: string): Promise<void> {
  process.stdout.write(renderHistoryReport(await loadHistoryReport(ctx, traineeId)));
}
