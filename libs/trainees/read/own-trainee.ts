import { NotFound } from '@app/trainees/decider';
import type { Trainee, ApiVersion } from '@app/trainees/record';
import type { TraineeReadModel } from './trainee-read.port';

/** The ownership rule of every read (docs/DESIGN.md property 6): the trainee if `ukprn`'s; NotFound('Trainee') if unknown or another's. */
export async function findOwnTrainee(readModel: Pick<TraineeReadModel, 'getTrainee'>, ukprn: string, traineeId: string): Promise<Trainee> {
  const trainee = await readModel.getTrainee(traineeId);
  if (!trainee || trainee.ukprn !== ukprn) throw new NotFound('Trainee');
  return trainee;
}

/** The trainee's answer bytes in `version`, under {@link findOwnTrainee}'s ownership rule. */
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
