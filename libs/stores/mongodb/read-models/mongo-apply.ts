import { MongoBulkWriteError, type AnyBulkWriteOperation, type Collection, type Document, type Filter } from 'mongodb';
import { type StoredChange, changeOf } from '@app/changes';
import type { TraineeEvent } from '@app/trainees/decider';
import { chainLinkOf, type RecordedEvent, decodeBatch, foldBatch, type OnApplied } from '@app/event-sourcing';
import type { ProjectionName } from '@app/runtime/projector';
import { changedTokens, providerProjection, type ProviderDocument, type TokenDocument } from '@app/providers/read';
import { traineeIdKey, traineeKeys, traineeProjection, type TraineeDocument } from '@app/trainees/read';
import {
  providerCollections,
  toProviderRecord,
  toTokenRecord,
  traineeCollections,
  type ProviderCollections,
  type StoredProvider,
  type StoredToken,
  type StoredChangeDocument,
  type StoredTrainee,
} from './mongo-collections';
import { DUPLICATE_KEY, MAX_WRITE_ATTEMPTS, plain, retryMultiWrite } from '../mongo-connection';
import type { MongoRegistry } from './mongo-registry';
import { WriteFence } from './write-fence';

/** A write of a bulk, with what is needed to tell "already applied" from a real conflict. */
interface PlannedWrite<T extends Document> {
  model: AnyBulkWriteOperation<T>;
  id: string;
  /** Set behind a `revision < n` guard; null for unguarded writes. */
  revision: number | null;
}

/** Then moves the store's checkpoint; `MongoReadModel.applyBatch` says how. `fence` is checked before every write (WriteWindowClosed). */
export async function applyToStore(
  registry: MongoRegistry,
  name: ProjectionName,
  store: string,
  version: number,
  events: RecordedEvent[],
  fence: WriteFence = WriteFence.OPEN,
): Promise<void> {
  if (events.length === 0) return;
  if (name === 'trainees') {
    const { trainees, changes: feed } = traineeCollections(registry.db, store);
    const batch = decodeBatch(traineeProjection, events);
    if (batch.keys.length > 0) {
      const feedEntries: StoredChange[] = [];
      // An erasure is absent from the feed (docs/DESIGN.md "Personal data").
      const onApplied: OnApplied<TraineeEvent, TraineeDocument> = ({ event, recorded }, before, after) => {
        if (!after.erased) feedEntries.push(changeOf(event, recorded, before, after));
      };
      const changes = foldBatch(traineeProjection, batch, await loadTrainees(trainees, batch.keys), onApplied);
      fence.check();
      await writeFeed(feed, feedEntries);
      await runBulk(
        trainees,
        changes.map((c) => traineeWrite(c.after)),
        fence,
      );
    }
  } else {
    const collections = providerCollections(registry.db, store);
    const batch = decodeBatch(providerProjection, events);
    if (batch.keys.length > 0) {
      const changes = foldBatch(providerProjection, batch, await loadProviders(collections, batch.keys));
      // Tokens first: a provider's revision is what makes a redelivered token event be skipped.
      await runBulk(
        collections.tokens,
        changes.flatMap((c) => changedTokens(c.before, c.after).map(tokenWrite)),
        fence,
      );
      await runBulk(
        collections.providers,
        changes.map((c) => providerWrite(c.after)),
        fence,
      );
    }
  }
  fence.check();
  await registry.advanceCheckpoint(events[events.length - 1].position, `${name}_${store}`, version);
}

/** Each inserted once (an upsert on `_id`); readers see none above the checkpoint, so a half-written batch is never read. */
async function writeFeed(feed: Collection<StoredChangeDocument>, entries: StoredChange[]): Promise<void> {
  if (entries.length === 0) return;
  await feed.bulkWrite(
    entries.map((entry) => ({
      updateOne: { filter: { _id: entry.position }, update: { $setOnInsert: { ...entry } }, upsert: true },
    })),
    { ordered: false },
  );
}

/** Found by `trainee_id_lower` as on SQLite; one query. */
async function loadTrainees(trainees: Collection<StoredTrainee>, keys: string[]): Promise<Map<string, TraineeDocument>> {
  const lowers = [...new Set(keys.map(traineeIdKey))];
  const stored = await trainees
    .find(
      { trainee_id_lower: { $in: lowers } },
      { projection: { doc: 1, revision: 1, head_hash: 1, created_position: 1, trainee_id_lower: 1 } },
    )
    .toArray();
  const byLower = new Map(stored.map((row) => [row.trainee_id_lower, row]));
  const found = new Map<string, TraineeDocument>();
  for (const key of keys) {
    const row = byLower.get(traineeIdKey(key));
    if (row)
      found.set(key, {
        trainee: row.doc,
        revision: row.revision,
        link: chainLinkOf(row.head_hash),
        created_position: row.created_position,
      });
  }
  return found;
}

/** The guarded upsert storing a trainee document: its {@link traineeKeys} as fields, the trainee in `doc`. */
function traineeWrite(doc: TraineeDocument): PlannedWrite<StoredTrainee> {
  // An erased trainee's document is deleted (docs/DESIGN.md "Personal data").
  if (doc.erased) return { id: doc.trainee.trainee_id, revision: null, model: { deleteOne: { filter: { _id: doc.trainee.trainee_id } } } };
  const { trainee_id, trainee_id_lower, created_position, ...fields } = traineeKeys(doc);
  return {
    id: trainee_id,
    revision: doc.revision,
    model: {
      updateOne: {
        filter: { _id: trainee_id, revision: { $lt: doc.revision } },
        update: {
          $set: { ...fields, revision: doc.revision, head_hash: doc.link ?? null, doc: plain(doc.trainee) },
          $setOnInsert: { trainee_id, trainee_id_lower, created_position },
        },
        upsert: true,
      },
    },
  };
}

/** The provider documents of `ukprns` stored in `collections` (providers and their tokens); two queries. */
async function loadProviders({ providers, tokens }: ProviderCollections, ukprns: string[]): Promise<Map<string, ProviderDocument>> {
  const [stored, storedTokens] = await Promise.all([
    providers.find({ _id: { $in: ukprns } }).toArray(),
    tokens.find({ ukprn: { $in: ukprns } }).toArray(),
  ]);
  const found = new Map<string, ProviderDocument>();
  for (const row of stored) {
    const own = storedTokens
      .filter((t) => t.ukprn === row._id)
      .map((t): TokenDocument => ({ ...toTokenRecord(t), token_hash: t.token_hash }));
    found.set(row._id, {
      record: toProviderRecord(row),
      tokens: Object.fromEntries(own.map((t) => [t.token_id, t])),
      state: row.state,
      revision: row.revision,
    });
  }
  return found;
}

/** The guarded upsert storing a provider document's record, revision and state. */
function providerWrite(doc: ProviderDocument): PlannedWrite<StoredProvider> {
  const { ukprn, name, created_at } = doc.record;
  return {
    id: ukprn,
    revision: doc.revision,
    model: {
      updateOne: {
        filter: { _id: ukprn, revision: { $lt: doc.revision } },
        update: { $set: { name, revision: doc.revision, state: plain(doc.state) }, $setOnInsert: { ukprn, created_at } },
        upsert: true,
      },
    },
  };
}

/** A token never goes back to active nor its last use back, so its writes in any order leave it as the latest event did. */
function tokenWrite(token: TokenDocument): PlannedWrite<StoredToken> {
  const { token_id, token_hash, ukprn, issued_at, expires_at } = token;
  const onInsert = { token_id, token_hash, ukprn, issued_at, expires_at };
  const lastUse = token.last_used_at === null ? {} : { $max: { last_used_at: token.last_used_at } };
  const update =
    token.status === 'revoked'
      ? { $setOnInsert: onInsert, $set: { status: token.status, revoked_at: token.revoked_at }, ...lastUse }
      : { $setOnInsert: { ...onInsert, status: token.status, revoked_at: null }, ...lastUse };
  return { id: token_id, revision: null, model: { updateOne: { filter: { _id: token_id }, update, upsert: true } } };
}

/**
 * Unordered bulk writes. On E11000 a guarded write whose document holds its revision or newer was applied already; an older one lost an
 * upsert race and is re-sent, as are unguarded writes; a missing document collided on another unique index: an error.
 */
async function runBulk<T extends { _id: string; revision?: number }>(
  coll: Collection<T>,
  writes: PlannedWrite<T>[],
  fence: WriteFence,
): Promise<void> {
  let pending = writes;
  for (let attempt = 1; pending.length > 0; attempt++) {
    fence.check();
    try {
      await coll.bulkWrite(
        pending.map((w) => w.model),
        { ordered: false },
      );
      return;
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError) || error.result.getWriteConcernError()) throw error;
      const writeErrors = error.result.getWriteErrors();
      if (writeErrors.length === 0 || writeErrors.some((e) => e.code !== DUPLICATE_KEY)) throw error;
      const failed = writeErrors.map((e) => ({ write: pending[e.index], message: e.errmsg ?? 'E11000 duplicate key' }));
      const guardedIds = failed.filter((f) => f.write.revision !== null).map((f) => f.write.id);
      const storedRevision = new Map<string, number>();
      if (guardedIds.length > 0) {
        const rows = await coll.find({ _id: { $in: guardedIds } } as Filter<T>, { projection: { revision: 1 } }).toArray();
        for (const row of rows) storedRevision.set(String(row._id), Number(row.revision));
      }
      const retry: PlannedWrite<T>[] = [];
      for (const { write, message } of failed) {
        if (write.revision === null) {
          retry.push(write);
          continue;
        }
        const stored = storedRevision.get(write.id);
        if (stored === undefined) {
          throw new Error(
            `Cannot project ${coll.collectionName} document '${write.id}': it conflicts with another document on a unique index (${message})`,
          );
        }
        if (stored < write.revision) retry.push(write);
      }
      if (retry.length > 0 && attempt >= MAX_WRITE_ATTEMPTS) {
        throw new Error(
          `Gave up writing ${retry.length} ${coll.collectionName} document(s) after ${attempt} attempts: ${failed[0].message}`,
        );
      }
      pending = retry;
    }
  }
}

/** `ReadModelStore.eraseTrainee` in `store`; `fence` checked before the write that could re-create a dropped feed collection. */
export async function eraseInStore(
  registry: MongoRegistry,
  store: string,
  traineeId: string,
  ukprn: string,
  stream: readonly RecordedEvent[],
  fence: WriteFence,
): Promise<void> {
  const { trainees, changes: feed } = traineeCollections(registry.db, store);
  const batch = decodeBatch(traineeProjection, stream);
  const entries: StoredChange[] = [];
  const folded = foldBatch(traineeProjection, batch, new Map(), ({ event, recorded }, before, after) => {
    if (!after.erased) entries.push(changeOf(event, recorded, before, after));
  });
  if (folded.length !== 1 || !folded[0].after.erased) throw new Error(`the stream of trainee ${traineeId} does not end in an erasure`);
  await retryMultiWrite(() => feed.deleteMany({ ukprn, trainee_id: traineeId }));
  fence.check();
  await writeFeed(feed, entries);
  await trainees.deleteOne({ _id: traineeId });
}
