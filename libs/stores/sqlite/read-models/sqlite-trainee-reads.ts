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

/** `TraineeReadModel` on the served trainee store. */
export class SqliteTraineeReads implements TraineeReadModel {
  constructor(private readonly view: ReadStoreView) {}

  /** Matched case-insensitively (docs/reference/API-FACTS.md §1.10), or null. */
  async getTrainee(traineeId: string): Promise<Trainee | null> {
    return this.view.read((t) => t.trainees.trainee(traineeId));
  }

  /** With the revision of its last event applied; null when none, or the served store was built by another version (`rebuild_needed`). */
  async getTraineeSnapshot(traineeId: string): Promise<TraineeSnapshot | null> {
    return this.view.read((t) => (this.view.servesCodeVersion('trainees') ? t.trainees.snapshot(traineeId) : null));
  }

  /** docs/reference/API-FACTS.md §14. */
  async listTrainees(q: TraineeListQuery): Promise<TraineeListPage> {
    return this.view.read((t) => t.trainees.page(q));
  }

  /** Rendered per read from a store of another projection version. */
  async getTraineeAnswer(traineeId: string, version: ApiVersion): Promise<OwnedAnswer | null> {
    return this.view.read((t) => t.trainees.answer(traineeId, version, this.view.servesCodeVersion('trainees')));
  }

  /** Stored bytes as for {@link getTraineeAnswer}. */
  async listTraineeAnswers(q: TraineeListQuery, version: ApiVersion): Promise<TraineeAnswerPage> {
    return this.view.read((t) => t.trainees.answerPage(q, version, this.view.servesCodeVersion('trainees')));
  }

  /** Last name case-insensitive; oldest-created first. */
  async findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]> {
    return this.view.read((t) => t.trainees.duplicateCandidates(ukprn, dateOfBirth, trainingRoute, lastName));
  }

  async listEndings(afterId: string | null, limit: number): Promise<TraineeEnding[]> {
    return this.view.read((t) => endingsIn(this.view.db, t.trainees, afterId, limit));
  }

  /** On the list index. */
  async providerTraineeIds(ukprn: string): Promise<string[]> {
    return this.view.read((t) => t.trainees.idsOf(ukprn));
  }
}
