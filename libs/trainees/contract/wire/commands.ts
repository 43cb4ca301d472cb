/**
 * Domain commands from a version's wire bodies, for code that decides without HTTP (the benchmark's
 * data generator, test fixtures that replay realistic histories): the body's `data` goes through
 * the version's wire checks (libs/contract/src/wire/requests.ts) and the version becomes its rules.
 */
import type { TraineeCommand } from '@app/trainees/decider';
import { traineeRulesFor } from '../rules';
import type { ApiVersion } from '@app/trainees/record';
import { requestsFor } from './requests';

type Wire<C> = C extends { rules: unknown } ? Omit<C, 'rules' | 'data'> & { version: ApiVersion; input?: unknown } : C;

/** A trainee command as a wire body describes it: `version` and the body's `data` as `input`. */
export type WireCommand = { [K in TraineeCommand['type']]: Wire<Extract<TraineeCommand, { type: K }>> }[TraineeCommand['type']];

/** The domain command of a wire command: `input` checked by the version's wire object, `version` as its rules. */
export function commandFromWire(command: WireCommand): TraineeCommand {
  if (!('version' in command)) return command;
  const { version, input, ...rest } = command;
  const requests = requestsFor(version);
  const rules = traineeRulesFor(version);
  switch (rest.type) {
    case 'RegisterTrainee':
      return { ...rest, rules, data: requests.traineeCreate(input) };
    case 'UpdateTrainee':
      return { ...rest, rules, data: requests.traineeUpdate(input) };
    case 'AddPlacement':
    case 'UpdatePlacement':
      return { ...rest, rules, data: requests.placement(input) };
    case 'AddDegree':
    case 'UpdateDegree':
      return { ...rest, rules, data: requests.degree(input) };
    case 'DeferTrainee':
      return { ...rest, rules, data: requests.deferral(input) };
    case 'WithdrawTrainee':
      return { ...rest, rules, data: requests.withdrawal(input) };
    case 'RecommendForAward':
      return { ...rest, rules, data: requests.recommendation(input) };
    case 'RemovePlacement':
    case 'RemoveDegree':
      return { ...rest, rules };
  }
}
