import type { Collection, Db } from 'mongodb';
import type { StoredChange } from '@app/changes';
import type { ProviderState } from '@app/providers/decider';
import type { Trainee } from '@app/trainees/record';
import type { ProjectionName } from '@app/runtime/projector';
import type { TraineeKeys } from '@app/trainees/read';
import type { ProviderRecord, TokenRecord } from '@app/providers/read';

/** `trainees_<store>`: the projection's {@link TraineeKeys} as fields (`created_position` plays SQLite's `seq`), the trainee in `doc`. */
export interface StoredTrainee extends TraineeKeys {
  /** The trainee id exactly as registered. */
  _id: string;
  revision: number;
  /** The hash of the event at `revision`; absent or null when not known. */
  head_hash?: string | null;
  doc: Trainee;
}

/** Keyed by its position (docs/change-feed.md). */
export interface StoredChangeDocument extends StoredChange {
  _id: number;
}

export interface StoredProvider {
  /** The UKPRN. */
  _id: string;
  ukprn: string;
  name: string;
  created_at: string;
  revision: number;
  state: ProviderState;
}

export interface StoredToken {
  /** The token id. */
  _id: string;
  token_id: string;
  token_hash: string;
  ukprn: string;
  status: 'active' | 'revoked';
  issued_at: string;
  revoked_at: string | null;
  /** Absent in tokens from before expiry: never expires. */
  expires_at?: string | null;
  /** Absent until a use is recorded. */
  last_used_at?: string | null;
}

export interface TraineeCollections {
  store: string;
  trainees: Collection<StoredTrainee>;
  changes: Collection<StoredChangeDocument>;
}

export interface ProviderCollections {
  store: string;
  providers: Collection<StoredProvider>;
  tokens: Collection<StoredToken>;
}

/** `trainees_<store>` and `trainee_changes_<store>`, or `providers_<store>` and `tokens_<store>`; the checkpoint is `<name>_<store>`. */
export function mongoStoreCollections(name: ProjectionName, store: string): string[] {
  return name === 'trainees' ? [`trainees_${store}`, `trainee_changes_${store}`] : [`providers_${store}`, `tokens_${store}`];
}

export function traineeCollections(db: Db, store: string): TraineeCollections {
  const [trainees, changes] = mongoStoreCollections('trainees', store);
  return { store, trainees: db.collection<StoredTrainee>(trainees), changes: db.collection<StoredChangeDocument>(changes) };
}

export function providerCollections(db: Db, store: string): ProviderCollections {
  const [providers, tokens] = mongoStoreCollections('providers', store);
  return { store, providers: db.collection<StoredProvider>(providers), tokens: db.collection<StoredToken>(tokens) };
}

/**
 * The list in either order, the status and `has_trn` filters (without them a filtered list reads every trainee of the provider and
 * cycle, each page), the duplicate check, the case-insensitive id. `mongo-indexes.spec.ts` holds each list query to one.
 */
export const TRAINEE_INDEXES = [
  { key: { ukprn: 1, start_cycle: 1, updated_at: 1, created_position: 1 }, name: 'list_updated_desc' },
  { key: { ukprn: 1, start_cycle: 1, updated_at: 1, created_position: -1 }, name: 'list_updated_asc' },
  { key: { ukprn: 1, start_cycle: 1, state: 1, itt_start_date: 1, has_trn: 1, updated_at: 1, created_position: 1 }, name: 'list_status' },
  { key: { ukprn: 1, date_of_birth: 1, training_route: 1, last_name_key: 1, created_position: 1 }, name: 'duplicates' },
  { key: { trainee_id_lower: 1 }, name: 'trainee_id_lower', unique: true },
] as const;

/** Creates one store's collections and indexes (docs/DESIGN.md "Indexes"); providers are read by `_id` only. Throws the driver's error. */
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

export function toProviderRecord(row: StoredProvider): ProviderRecord {
  return { ukprn: row._id, name: row.name, created_at: row.created_at };
}
