import type { TraineeSnapshot } from '@app/trainees/decider';
import type { ApiVersion, Trainee } from '@app/trainees/record';
import type {
  OwnedAnswer,
  TraineeAnswerPage,
  TraineeEnding,
  TraineeListPage,
  TraineeListQuery,
  TraineeReadModel,
} from '@app/trainees/read';
import { endingsIn } from './erasure';
import type { ReadStoreView } from './read-store-view';

/** The trainee read model (`TraineeReadModel`) on the served trainee store of the embedded read store's `view`. */
export class SqliteTraineeReads implements TraineeReadModel {
  constructor(private readonly view: ReadStoreView) {}

  /** The trainee by id, matched case-insensitively (docs/reference/API-FACTS.md §1.10), or null. */
  async getTrainee(traineeId: string): Promise<Trainee | null> {
    return this.view.read((t) => t.trainees.trainee(traineeId));
  }

  /**
   * The trainee (id matched case-insensitively) and the stream revision of the last event applied
   * to it, from the served trainee store; null when there is none, or when the served store was
   * built by another projection version than this code's (the comparison `rebuild_needed` of
   * `projectionInfo` reports). See `TraineeReadModel.getTraineeSnapshot`.
   */
  async getTraineeSnapshot(traineeId: string): Promise<TraineeSnapshot | null> {
    return this.view.read((t) => (this.view.servesCodeVersion('trainees') ? t.trainees.snapshot(traineeId) : null));
  }

  /** One page of a provider's trainees of one academic cycle (docs/reference/API-FACTS.md §14). */
  async listTrainees(q: TraineeListQuery): Promise<TraineeListPage> {
    return this.view.read((t) => t.trainees.page(q));
  }

  /** See `TraineeReadModel.getTraineeAnswer`; rendered per read from a store of another projection version. */
  async getTraineeAnswer(traineeId: string, version: ApiVersion): Promise<OwnedAnswer | null> {
    return this.view.read((t) => t.trainees.answer(traineeId, version, this.view.servesCodeVersion('trainees')));
  }

  /** The list page as answer bytes of `version` (stored bytes as for {@link getTraineeAnswer}). */
  async listTraineeAnswers(q: TraineeListQuery, version: ApiVersion): Promise<TraineeAnswerPage> {
    return this.view.read((t) => t.trainees.answerPage(q, version, this.view.servesCodeVersion('trainees')));
  }

  /** The provider's trainees with this date of birth, route and last name (case-insensitive), oldest-created first. */
  async findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]> {
    return this.view.read((t) => t.trainees.duplicateCandidates(ukprn, dateOfBirth, trainingRoute, lastName));
  }

  /** See `TraineeReadModel.listEndings`: the served store. */
  async listEndings(afterId: string | null, limit: number): Promise<TraineeEnding[]> {
    return this.view.read((t) => endingsIn(this.view.db, t.trainees, afterId, limit));
  }

  /** See `TraineeReadModel.providerTraineeIds`: the served store, on the list index. */
  async providerTraineeIds(ukprn: string): Promise<string[]> {
    return this.view.read((t) => t.trainees.idsOf(ukprn));
  }
}
