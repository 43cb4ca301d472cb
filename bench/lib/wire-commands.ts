/**
 * Domain commands from a version's wire bodies, for the benchmark's data set: the bench builds it
 * through the entries the API uses, without HTTP. A body's `data` goes through the version
 * contract's `requests` (the wire checks the API's body pipe runs), the version becomes the
 * contract's `rules`, and the command is then given to `decide`, so every event loaded is one the
 * service could have written.
 */
import { contractFor } from '@app/trainees/contract';
import type { TraineeCommand } from '@app/trainees/decider';
import type { ApiVersion } from '@app/trainees/record';

type Wire<C> = C extends { rules: unknown } ? Omit<C, 'rules' | 'data'> & { version: ApiVersion; input?: unknown } : C;

/** A trainee command as a wire body describes it: `version` and the body's `data` as `input`. */
export type WireCommand = { [K in TraineeCommand['type']]: Wire<Extract<TraineeCommand, { type: K }>> }[TraineeCommand['type']];

/**
 * The domain command of wire command `command`: its `input` checked by the version contract's
 * `requests`, its `version` replaced by the contract's `rules`. Commands without a version (the
 * registry's) are returned as they are.
 */
export function commandFromWire(command: WireCommand): TraineeCommand {
  if (!('version' in command)) return command;
  const { version, input, ...rest } = command;
  const { requests, rules } = contractFor(version);
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
