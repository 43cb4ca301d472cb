import type { Collection, Db } from 'mongodb';
import type { StoredChange } from '@app/changes';
import type { ProviderState } from '@app/providers/decider';
import type { Trainee } from '@app/trainees/record';
import type { ProjectionName } from '@app/runtime/projector';
import type { TraineeKeys } from '@app/trainees/read';
import type { ProviderRecord, TokenRecord } from '@app/providers/read';

/**
 * One trainee document of `trainees_<store>`: the projection's {@link TraineeKeys} as fields (the
 * columns the SQLite table has; `created_position` plays the part of its `seq`), the stream
 * revision of the last event applied and its hash, and the trainee itself in `doc`.
 */
export interface StoredTrainee extends TraineeKeys {
  /** The trainee id exactly as registered. */
  _id: string;
  revision: number;
  /** The hash of the event at `revision` (docs/DESIGN.md "Verifiable history"); absent or null when not known. */
  head_hash?: string | null;
  doc: Trainee;
}

/** One change of `trainee_changes_<store>` (docs/change-feed.md), keyed by its position. */
export interface StoredChangeDocument extends StoredChange {
  _id: number;
}

/** One provider of `providers_<store>`. */
export interface StoredProvider {
  /** The UKPRN. */
  _id: string;
  ukprn: string;
  name: string;
  created_at: string;
  revision: number;
  state: ProviderState;
}

/** One token of `tokens_<store>`. */
export interface StoredToken {
  /** The token id. */
  _id: string;
  token_id: string;
  token_hash: string;
  ukprn: string;
  status: 'active' | 'revoked';
  issued_at: string;
  revoked_at: string | null;
  /** Absent in a token stored before tokens expired (read as null: never expires). */
  expires_at?: string | null;
  /** Absent until a use is recorded. */
  last_used_at?: string | null;
}

/** The collections of one trainee store. */
export interface TraineeCollections {
  store: string;
  trainees: Collection<StoredTrainee>;
  changes: Collection<StoredChangeDocument>;
}

/** The collections of one provider store. */
export interface ProviderCollections {
  store: string;
  providers: Collection<StoredProvider>;
  tokens: Collection<StoredToken>;
}

/**
 * The collections of store `store` of projection `name` (docs/DESIGN.md "Read models": a store is
 * named with its version, e.g. `v1`, `v1_g2`, `v2`): `trainees_<store>` and `trainee_changes_<store>` for `trainees`;
 * `providers_<store>` and `tokens_<store>` for `providers`. Its checkpoint is the document
 * `<name>_<store>` of `projection_checkpoints`.
 */
export function mongoStoreCollections(name: ProjectionName, store: string): string[] {
  return name === 'trainees' ? [`trainees_${store}`, `trainee_changes_${store}`] : [`providers_${store}`, `tokens_${store}`];
}

/** The collections of trainee store `store` of `db`. */
export function traineeCollections(db: Db, store: string): TraineeCollections {
  const [trainees, changes] = mongoStoreCollections('trainees', store);
  return { store, trainees: db.collection<StoredTrainee>(trainees), changes: db.collection<StoredChangeDocument>(changes) };
}

/** The collections of provider store `store` of `db`. */
export function providerCollections(db: Db, store: string): ProviderCollections {
  const [providers, tokens] = mongoStoreCollections('providers', store);
  return { store, providers: db.collection<StoredProvider>(providers), tokens: db.collection<StoredToken>(tokens) };
}

/**
 * The trainee documents' indexes: the list in either order, the status and `has_trn` filters and
 * their counts (the columns of the SQLite adapter's status index: without it a filtered list would
 * read every trainee of the provider and cycle, every page), the duplicate check, and the
 * case-insensitive id. `mongo-indexes.spec.ts` holds each list query to an index that covers it.
 */
export const TRAINEE_INDEXES = [
  { key: { ukprn: 1, start_cycle: 1, updated_at: 1, created_position: 1 }, name: 'list_updated_desc' },
  { key: { ukprn: 1, start_cycle: 1, updated_at: 1, created_position: -1 }, name: 'list_updated_asc' },
  { key: { ukprn: 1, start_cycle: 1, state: 1, itt_start_date: 1, has_trn: 1, updated_at: 1, created_position: 1 }, name: 'list_status' },
  { key: { ukprn: 1, date_of_birth: 1, training_route: 1, last_name_key: 1, created_position: 1 }, name: 'duplicates' },
  { key: { trainee_id_lower: 1 }, name: 'trainee_id_lower', unique: true },
] as const;

/**
 * Creates the indexes of one store (creating its collections):
 * - trainees: list filters `{ukprn, start_cycle, updated_at, created_position}` in both tie-break
 *   directions, so `updated_at` ascending and descending with `created_position` descending are
 *   both served without an in-memory sort (docs/DESIGN.md "Indexes"); the duplicate check
 *   `{ukprn, date_of_birth, training_route, last_name_key, created_position}`; unique
 *   `trainee_id_lower` (case-insensitive ids, docs/reference/API-FACTS.md §1.10); the status
 *   filters (see {@link TRAINEE_INDEXES}); a provider's change feed `{ukprn, _id}` (the position).
 * - providers: tokens' unique `token_hash` (authentication) and `{ukprn, issued_at}` (a
 *   provider's tokens); providers are read by `_id` only (created on first write).
 * Throws the driver's error when an index cannot be built.
 */
export async function ensureStoreIndexes(db: Db, name: ProjectionName, store: string): Promise<void> {
  if (name === 'trainees') {
    const { trainees, changes } = traineeCollections(db, store);
    await changes.createIndexes([{ key: { ukprn: 1, _id: 1 }, name: 'provider_feed' }]);
    await trainees.createIndexes([...TRAINEE_INDEXES]);
    return;
  }
  await providerCollections(db, store).tokens.createIndexes([
    { key: { token_hash: 1 }, name: 'token_hash', unique: true },
    { key: { ukprn: 1, issued_at: 1, _id: 1 }, name: 'by_ukprn' },
  ]);
}

/** A stored token as the read port answers it. */
export function toTokenRecord(row: StoredToken): TokenRecord {
  return {
    token_id: row._id,
    ukprn: row.ukprn,
    status: row.status,
    issued_at: row.issued_at,
    revoked_at: row.revoked_at ?? null,
    expires_at: row.expires_at ?? null,
    last_used_at: row.last_used_at ?? null,
  };
}

/** A stored provider as the read port answers it. */
export function toProviderRecord(row: StoredProvider): ProviderRecord {
  return { ukprn: row._id, name: row.name, created_at: row.created_at };
}
