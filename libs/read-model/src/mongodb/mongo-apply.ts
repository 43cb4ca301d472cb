import type { AnyBulkWriteOperation, Collection, Document, Filter } from 'mongodb';
import { MongoBulkWriteError } from 'mongodb';
import { decodeProviderEvent, decodeTraineeEvent, evolve, evolveProvider, initialProviderState, lastNameKey, type ProviderState, startCycle, type TraineeState } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import type { ProjectionName } from '../projection-versions';
import { providerCollections, traineeCollections, type StoredProvider, type StoredToken, type StoredTrainee } from './mongo-collections';
import { DUPLICATE_KEY, MAX_WRITE_ATTEMPTS, plain, WRITE_CONCERN } from './mongo-connection';
import type { MongoRegistry } from './mongo-registry';

/** A write of a bulk, with what is needed to tell "already applied" from a real conflict. */
interface PlannedWrite<T extends Document> {
  model: AnyBulkWriteOperation<T>;
  /** `_id` of the document written. */
  id: string;
  /** Revision the write sets behind a `revision < n` guard; null for unguarded writes. */
  revision: number | null;
}

/**
 * Applies `events` to store `store` of projection `name` of the registry's database, then advances
 * the store's checkpoint (`<name>_<store>`, `version` recorded with it) to the last event's
 * position; see `MongoReadModel.applyBatch` for how. An empty batch writes nothing.
 */
export async function applyToStore(
  registry: MongoRegistry,
  name: ProjectionName,
  store: string,
  version: number,
  events: RecordedEvent[],
): Promise<void> {
  if (events.length === 0) return;
  if (name === 'trainees') {
    const { trainees } = traineeCollections(registry.db, store);
    await runBulk(trainees, await planTraineeWrites(trainees, events));
  } else {
    const { providers, tokens } = providerCollections(registry.db, store);
    const { tokenWrites, providerWrites } = await planProviderWrites(providers, events);
    await runBulk(tokens, tokenWrites);
    await runBulk(providers, providerWrites);
  }
  await registry.advanceCheckpoint(events[events.length - 1].position, `${name}_${store}`, version);
}

async function planTraineeWrites(trainees: Collection<StoredTrainee>, events: RecordedEvent[]): Promise<PlannedWrite<StoredTrainee>[]> {
  const decoded = events.flatMap((recorded) => {
    const event = decodeTraineeEvent(recorded);
    return event ? [{ recorded, event }] : [];
  });
  if (decoded.length === 0) return [];
  const lowers = [...new Set(decoded.map((d) => d.event.data.trainee_id.toLowerCase()))];
  const stored = await trainees
    .find({ trainee_id_lower: { $in: lowers } }, { projection: { doc: 1, revision: 1, created_position: 1, trainee_id_lower: 1 } })
    .toArray();
  const byLower = new Map(stored.map((row) => [row.trainee_id_lower, row]));

  interface Entry {
    state: TraineeState;
    revision: number;
    createdPosition: number | null;
    dirty: boolean;
  }
  // Keyed by the id as the event carries it, as the SQLite adapter does.
  const entries = new Map<string, Entry>();
  for (const { recorded, event } of decoded) {
    const id = event.data.trainee_id;
    let entry = entries.get(id);
    if (!entry) {
      const row = byLower.get(id.toLowerCase());
      entry = row
        ? { state: { exists: true, trainee: row.doc }, revision: row.revision, createdPosition: row.created_position, dirty: false }
        : { state: { exists: false }, revision: -1, createdPosition: null, dirty: false };
      entries.set(id, entry);
    }
    if (recorded.streamRevision <= entry.revision) continue;
    entry.state = evolve(entry.state, event);
    entry.revision = recorded.streamRevision;
    entry.dirty = true;
    if (entry.state.exists && entry.createdPosition === null) entry.createdPosition = recorded.position;
  }

  const writes: PlannedWrite<StoredTrainee>[] = [];
  for (const entry of entries.values()) {
    if (!entry.dirty || !entry.state.exists) continue;
    const t = plain(entry.state.trainee);
    writes.push({
      id: t.trainee_id,
      revision: entry.revision,
      model: {
        updateOne: {
          filter: { _id: t.trainee_id, revision: { $lt: entry.revision } },
          update: {
            $set: {
              ukprn: t.ukprn,
              start_cycle: startCycle(t.details),
              state: t.state,
              itt_start_date: t.details.itt_start_date,
              has_trn: Boolean(t.trn),
              updated_at: t.updated_at,
              date_of_birth: t.details.date_of_birth,
              training_route: t.details.training_route,
              last_name_key: lastNameKey(t.details.last_name),
              revision: entry.revision,
              doc: t,
            },
            $setOnInsert: {
              trainee_id: t.trainee_id,
              trainee_id_lower: t.trainee_id.toLowerCase(),
              created_position: entry.createdPosition ?? events[events.length - 1].position,
            },
          },
          upsert: true,
        },
      },
    });
  }
  return writes;
}

async function planProviderWrites(
  providers: Collection<StoredProvider>,
  events: RecordedEvent[],
): Promise<{ tokenWrites: PlannedWrite<StoredToken>[]; providerWrites: PlannedWrite<StoredProvider>[] }> {
  const decoded = events.flatMap((recorded) => {
    const event = decodeProviderEvent(recorded);
    return event ? [{ recorded, event }] : [];
  });
  if (decoded.length === 0) return { tokenWrites: [], providerWrites: [] };
  const ukprns = [...new Set(decoded.map((d) => d.event.data.ukprn))];
  const stored = await providers.find({ _id: { $in: ukprns } }).toArray();
  const byUkprn = new Map(stored.map((row) => [row._id, row]));

  interface Entry {
    state: ProviderState;
    revision: number;
    /** created_at of a provider not stored yet (from its first applied event, as SQLite). */
    createdAt: string | null;
    dirty: boolean;
  }
  interface TokenChange {
    issued?: { token_hash: string; ukprn: string; at: string };
    revokedAt?: string;
  }
  const entries = new Map<string, Entry>();
  const tokenChanges = new Map<string, TokenChange>();
  for (const { recorded, event } of decoded) {
    const ukprn = event.data.ukprn;
    let entry = entries.get(ukprn);
    if (!entry) {
      const row = byUkprn.get(ukprn);
      entry = row
        ? { state: row.state, revision: row.revision, createdAt: null, dirty: false }
        : { state: initialProviderState, revision: -1, createdAt: null, dirty: false };
      entries.set(ukprn, entry);
    }
    if (recorded.streamRevision <= entry.revision) continue;
    if (!byUkprn.has(ukprn) && entry.createdAt === null) {
      entry.createdAt = event.type === 'ProviderRegistered' ? event.data.at : recorded.metadata.occurredAt;
    }
    entry.state = evolveProvider(entry.state, event);
    entry.revision = recorded.streamRevision;
    entry.dirty = true;
    if (event.type === 'TokenIssued') {
      const change = tokenChanges.get(event.data.token_id) ?? {};
      // As SQLite's INSERT … ON CONFLICT DO NOTHING: the first issue of a token id wins.
      change.issued ??= { token_hash: event.data.token_hash, ukprn, at: event.data.at };
      tokenChanges.set(event.data.token_id, change);
    } else if (event.type === 'TokenRevoked') {
      const change = tokenChanges.get(event.data.token_id) ?? {};
      change.revokedAt = event.data.at;
      tokenChanges.set(event.data.token_id, change);
    }
  }

  const tokenWrites: PlannedWrite<StoredToken>[] = [];
  for (const [tokenId, change] of tokenChanges) {
    const revoke = change.revokedAt !== undefined ? { status: 'revoked' as const, revoked_at: change.revokedAt } : null;
    if (change.issued) {
      const onInsert = {
        token_id: tokenId,
        token_hash: change.issued.token_hash,
        ukprn: change.issued.ukprn,
        issued_at: change.issued.at,
      };
      tokenWrites.push({
        id: tokenId,
        revision: null,
        model: {
          updateOne: {
            filter: { _id: tokenId },
            update: revoke
              ? { $setOnInsert: onInsert, $set: revoke }
              : { $setOnInsert: { ...onInsert, status: 'active', revoked_at: null } },
            upsert: true,
          },
        },
      });
    } else if (revoke) {
      // As SQLite's UPDATE: revoking a token that is not stored changes nothing.
      tokenWrites.push({ id: tokenId, revision: null, model: { updateOne: { filter: { _id: tokenId }, update: { $set: revoke } } } });
    }
  }

  const providerWrites: PlannedWrite<StoredProvider>[] = [];
  for (const [ukprn, entry] of entries) {
    if (!entry.dirty) continue;
    providerWrites.push({
      id: ukprn,
      revision: entry.revision,
      model: {
        updateOne: {
          filter: { _id: ukprn, revision: { $lt: entry.revision } },
          update: {
            $set: { name: entry.state.name ?? '', revision: entry.revision, state: plain(entry.state) },
            $setOnInsert: { ukprn, created_at: entry.createdAt ?? '' },
          },
          upsert: true,
        },
      },
    });
  }
  return { tokenWrites, providerWrites };
}

/**
 * Runs `writes` as unordered bulk writes with the majority write concern. Duplicate-key
 * failures are resolved: a guarded write whose document now holds its revision or a newer one
 * was already applied; one whose document holds an older revision lost an upsert race and is
 * re-sent; a guarded write whose document does not exist collided on another unique index
 * and is an error. Unguarded writes that failed with E11000 are re-sent. Any other failure,
 * or a write concern error, is thrown.
 */
async function runBulk<T extends { _id: string; revision?: number }>(coll: Collection<T>, writes: PlannedWrite<T>[]): Promise<void> {
  let pending = writes;
  for (let attempt = 1; pending.length > 0; attempt++) {
    try {
      await coll.bulkWrite(
        pending.map((w) => w.model),
        { ordered: false, writeConcern: WRITE_CONCERN },
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
        const rows = await coll
          .find({ _id: { $in: guardedIds } } as Filter<T>, { projection: { revision: 1 } })
          .toArray();
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
          throw new Error(`Cannot project ${coll.collectionName} document '${write.id}': it conflicts with another document on a unique index (${message})`);
        }
        if (stored < write.revision) retry.push(write);
      }
      if (retry.length > 0 && attempt >= MAX_WRITE_ATTEMPTS) {
        throw new Error(`Gave up writing ${retry.length} ${coll.collectionName} document(s) after ${attempt} attempts: ${failed[0].message}`);
      }
      pending = retry;
    }
  }
}
