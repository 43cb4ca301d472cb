import { NotFound } from '@app/trainees/decider';
import type { Trainee, ApiVersion } from '@app/trainees/record';
import type { TraineeReadModel } from './trainee-read.port';

/**
 * The ownership rule of every read (docs/DESIGN.md property 6): the trainee with this id (matched
 * case-insensitively, docs/reference/API-FACTS.md §1.10) if it belongs to the provider `ukprn`.
 * Throws NotFound('Trainee') (404 `Trainee(s) not found`) for an unknown trainee and for another
 * provider's alike, so an answer never tells one from the other. The write path's one check is the
 * decider's `ownTrainee`.
 */
export async function findOwnTrainee(readModel: Pick<TraineeReadModel, 'getTrainee'>, ukprn: string, traineeId: string): Promise<Trainee> {
  const trainee = await readModel.getTrainee(traineeId);
  if (!trainee || trainee.ukprn !== ukprn) throw new NotFound('Trainee');
  return trainee;
}

/**
 * The trainee's answer bytes in `version` if it belongs to the provider `ukprn` (the ownership rule
 * of {@link findOwnTrainee}); throws NotFound('Trainee') for an unknown trainee and another
 * provider's alike.
 */
export async function findOwnTraineeAnswer(
  readModel: Pick<TraineeReadModel, 'getTraineeAnswer'>,
  ukprn: string,
  traineeId: string,
  version: ApiVersion,
): Promise<Buffer> {
  const answer = await readModel.getTraineeAnswer(traineeId, version);
  if (!answer || answer.ukprn !== ukprn) throw new NotFound('Trainee');
  return answer.body;
}
