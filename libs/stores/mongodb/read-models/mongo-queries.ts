import type { Db, Filter } from 'mongodb';
import { answerItem, renderTraineeAnswer } from '@app/trainees/answers';
import type { ApiVersion, Trainee } from '@app/trainees/record';
import type { StoredChange } from '@app/changes';
import type { TraineeSnapshot } from '@app/trainees/decider';
import { chainLinkOf, type LogPosition } from '@app/event-sourcing';
import { CHANGE_FEED_SINCE_VERSION } from '@app/runtime/projector';
import { courseEndedOn } from '@app/personal-data/erasure';
import {
  duplicateKeys,
  traineeIdKey,
  type TraineeEnding,
  type OwnedAnswer,
  STATUS_RULES,
  type StatusFilter,
  type TraineeAnswerPage,
  type TraineeListPage,
  type TraineeListQuery,
  type TraineeReadModel,
} from '@app/trainees/read';
import type { ProviderReadModel, ProviderRecord, TokenRecord } from '@app/providers/read';
import {
  providerCollections,
  type ProviderCollections,
  type StoredChangeDocument,
  type StoredTrainee,
  toProviderRecord,
  toTokenRecord,
  traineeCollections,
} from './mongo-collections';
import type { MongoRegistry } from './mongo-registry';

/** The read ports' queries, each on the store the registry names ({@link MongoRegistry.readFollowing}), answered as on SQLite. */
export abstract class MongoQueries implements TraineeReadModel, ProviderReadModel {
  protected constructor(
    protected readonly db: Db,
    protected readonly registry: MongoRegistry,
  ) {}

  /** `TraineeReadModel.listEndings`: the served store, by `_id`. */
  async listEndings(afterId: string | null, limit: number): Promise<TraineeEnding[]> {
    const { store } = (await this.registry.read()).rows.trainees;
    const rows = await traineeCollections(this.db, store)
      .trainees.find({ _id: { $gt: afterId ?? '' } }, { projection: { doc: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return rows.map(({ doc }) => ({ trainee_id: doc.trainee_id, ukprn: doc.ukprn, state: doc.state, ended_on: courseEndedOn(doc) }));
  }

  /** Matched case-insensitively (docs/reference/API-FACTS.md §1.10). */
  async getTrainee(traineeId: string): Promise<Trainee | null> {
    return this.registry.readFollowing(
      'trainees',
      async (store) => {
        const row = await traineeCollections(this.db, store).trainees.findOne(
          { trainee_id_lower: traineeIdKey(traineeId) },
          { projection: { doc: 1 } },
        );
        return row ? row.doc : null;
      },
      (t) => t === null,
    );
  }

  /** Rendered per read: stored answer bytes are the embedded default's (docs/DESIGN.md "Answers stored as bytes"). */
  async getTraineeAnswer(traineeId: string, version: ApiVersion): Promise<OwnedAnswer | null> {
    const trainee = await this.getTrainee(traineeId);
    return trainee ? { ukprn: trainee.ukprn, body: renderTraineeAnswer(trainee, version).body } : null;
  }

  /** Rendered per read, as {@link getTraineeAnswer}. */
  async listTraineeAnswers(q: TraineeListQuery, version: ApiVersion): Promise<TraineeAnswerPage> {
    const page = await this.listTrainees(q);
    return { items: page.items.map((t) => answerItem(renderTraineeAnswer(t, version))), totalCount: page.totalCount };
  }

  /** Up to the store's checkpoint only: a batch still being written is not read (docs/change-feed.md). */
  async listChanges(ukprn: string, afterPosition: LogPosition, limit: number): Promise<StoredChange[] | null> {
    return this.readChanges((checkpoint) => ({ ukprn, _id: { $gt: afterPosition, $lte: checkpoint } }), limit);
  }

  /** On the list index (its leading `ukprn`). */
  async providerTraineeIds(ukprn: string): Promise<string[]> {
    return this.registry.readFollowing(
      'trainees',
      async (store) => {
        const rows = await traineeCollections(this.db, store)
          .trainees.find({ ukprn }, { projection: { _id: 0, trainee_id: 1 } })
          .toArray();
        // In binary order, as the SQLite adapter answers (the server's sort would follow a collation).
        return rows.map((r) => r.trainee_id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      },
      (ids) => ids.length === 0,
    );
  }

  /** Entries above the store's checkpoint are not read. */
  async changesBetween(afterPosition: LogPosition, upToPosition: LogPosition, limit: number): Promise<StoredChange[] | null> {
    return this.readChanges((checkpoint) => ({ _id: { $gt: afterPosition, $lte: Math.min(upToPosition, checkpoint) } }), limit);
  }

  /** Null when the serving store was built before it kept a change feed. */
  private async readChanges(filterOf: (checkpoint: number) => Filter<StoredChangeDocument>, limit: number): Promise<StoredChange[] | null> {
    return this.registry.readFollowing(
      'trainees',
      async (store, row) => {
        if (row.version < CHANGE_FEED_SINCE_VERSION) return null;
        const checkpoint = await this.registry.readCheckpoint(`trainees_${store}`);
        const rows = await traineeCollections(this.db, store)
          .changes.find(filterOf(checkpoint), { projection: { _id: 0 } })
          .sort({ _id: 1 })
          .limit(limit)
          .toArray();
        return rows as StoredChange[];
      },
      (rows) => rows !== null && rows.length === 0,
    );
  }

  /** With its head at the last event applied; null when none, or the store was built by another version (`rebuild_needed`). */
  async getTraineeSnapshot(traineeId: string): Promise<TraineeSnapshot | null> {
    return this.registry.readFollowing(
      'trainees',
      async (store, row) => {
        if (row.version !== this.registry.codeVersions.trainees) return null;
        const found = await traineeCollections(this.db, store).trainees.findOne(
          { trainee_id_lower: traineeIdKey(traineeId) },
          { projection: { doc: 1, revision: 1, head_hash: 1 } },
        );
        return found ? { trainee: found.doc, head: { revision: found.revision, link: chainLinkOf(found.head_hash) } } : null;
      },
      (snapshot) => snapshot === null,
    );
  }

  /** As on SQLite (docs/reference/API-FACTS.md §14): ties newest-created first; a page past the end is empty with the true `totalCount`. */
  async listTrainees(q: TraineeListQuery): Promise<TraineeListPage> {
    const filter = traineeListFilter(q);
    const offset = Math.max(0, (q.page - 1) * q.perPage);
    return this.registry.readFollowing(
      'trainees',
      async (store): Promise<TraineeListPage> => {
        const { trainees } = traineeCollections(this.db, store);
        const totalCount = await trainees.countDocuments(filter);
        if (totalCount === 0 || offset >= totalCount || q.perPage < 1) return { items: [], totalCount };
        const rows = await trainees
          .find(filter, { projection: { doc: 1 } })
          .sort(traineeListSort(q))
          .skip(offset)
          .limit(q.perPage)
          .toArray();
        return { items: rows.map((r) => r.doc), totalCount };
      },
      (page) => page.items.length === 0,
    );
  }

  /** Last names matched ignoring case and spacing (`lastNameKey`, docs/reference/API-FACTS.md §9.1), oldest-created first. */
  async findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]> {
    return this.registry.readFollowing(
      'trainees',
      async (store) => {
        const rows = await traineeCollections(this.db, store)
          .trainees.find(duplicateKeys(ukprn, dateOfBirth, trainingRoute, lastName), { projection: { doc: 1 } })
          .sort({ created_position: 1 })
          .toArray();
        return rows.map((r) => r.doc);
      },
      (rows) => rows.length === 0,
    );
  }

  /** `tokenHash`: SHA-256, lower-case hex. */
  async findTokenByHash(tokenHash: string): Promise<TokenRecord | null> {
    return this.readProviders(async ({ tokens }) => nullOr(await tokens.findOne({ token_hash: tokenHash }), toTokenRecord), isNull);
  }

  async getToken(tokenId: string): Promise<TokenRecord | null> {
    return this.readProviders(async ({ tokens }) => nullOr(await tokens.findOne({ _id: tokenId }), toTokenRecord), isNull);
  }

  /** By `issued_at`, then token id. */
  async listTokens(ukprn: string): Promise<TokenRecord[]> {
    return this.readProviders(
      async ({ tokens }) => (await tokens.find({ ukprn }).sort({ issued_at: 1, _id: 1 }).toArray()).map(toTokenRecord),
      isNone,
    );
  }

  async getProvider(ukprn: string): Promise<ProviderRecord | null> {
    return this.readProviders(async ({ providers }) => nullOr(await providers.findOne({ _id: ukprn }), toProviderRecord), isNull);
  }

  /** By UKPRN. */
  async listProviders(): Promise<ProviderRecord[]> {
    return this.readProviders(async ({ providers }) => (await providers.find({}).sort({ _id: 1 }).toArray()).map(toProviderRecord), isNone);
  }

  private readProviders<T>(read: (collections: ProviderCollections) => Promise<T>, isEmpty: (found: T) => boolean): Promise<T> {
    return this.registry.readFollowing('providers', (store) => read(providerCollections(this.db, store)), isEmpty);
  }
}

function nullOr<D, R>(found: D | null, to: (document: D) => R): R | null {
  return found === null ? null : to(found);
}

const isNull = (found: unknown): boolean => found === null;

const isNone = (found: readonly unknown[]): boolean => found.length === 0;

/** Exported for the index check. */
export function traineeListFilter(q: TraineeListQuery): Filter<StoredTrainee> {
  const filter: Filter<StoredTrainee> = { ukprn: q.ukprn, start_cycle: q.academicCycle };
  if (q.since) filter.updated_at = { $gte: q.since };
  if (q.hasTrn !== undefined) filter.has_trn = q.hasTrn;
  if (q.statuses && q.statuses.length > 0) filter.$or = q.statuses.map((s) => statusFilter(s, q.today));
  if (q.search && q.search.length > 0) filter.$and = q.search.map(searchWordFilter);
  return filter;
}

/** The fields a search reads, in the stored document (`matchesSearchWords`). */
const SEARCHED = ['doc.details.first_names', 'doc.details.last_name', 'doc.details.provider_trainee_id'] as const;

/**
 * One search word in any of {@link SEARCHED}, ignoring case: a regular expression of the word's characters taken literally, matched
 * case-insensitively (the server's PCRE folds Unicode letters, as `toLowerCase` does on SQLite's side). No index holds the names: the
 * list index bounds the read to the provider's cycle.
 */
function searchWordFilter(word: string): Filter<StoredTrainee> {
  const pattern = word.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return { $or: SEARCHED.map((field) => ({ [field]: { $regex: pattern, $options: 'i' } })) } as Filter<StoredTrainee>;
}

export function traineeListSort(q: Pick<TraineeListQuery, 'sortOrder'>): { updated_at: 1 | -1; created_position: -1 } {
  return { updated_at: q.sortOrder === 'asc' ? 1 : -1, created_position: -1 };
}

/** From `STATUS_RULES` (docs/reference/API-FACTS.md §14.4); `today` `YYYY-MM-DD` UTC: string order is date order, as in SQLite. */
function statusFilter(status: StatusFilter, today: string): Filter<StoredTrainee> {
  const { states, start } = STATUS_RULES[status];
  const filter: Filter<StoredTrainee> = {
    state: 'notIn' in states ? { $nin: [...states.notIn] } : states.in.length === 1 ? states.in[0] : { $in: [...states.in] },
  };
  if (start === 'after_today') filter.itt_start_date = { $gt: today };
  if (start === 'on_or_before_today') filter.itt_start_date = { $lte: today };
  return filter;
}
