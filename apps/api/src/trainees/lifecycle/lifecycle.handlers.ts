import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { DeferralFields, RecommendationFields, RequestData, Trainee, TraineeRules, WithdrawalFields } from '@app/domain';
import { Infrastructure } from '../../infrastructure/infrastructure';

/** The lifecycle actions of docs/spec/trainee-records-api.md: defer, withdraw, recommend for QTS/EYTS, with their checked bodies. */
export type LifecycleAction =
  | { action: 'defer'; data: RequestData<DeferralFields> }
  | { action: 'withdraw'; data: RequestData<WithdrawalFields> }
  | { action: 'recommend'; data: RequestData<RecommendationFields> };

/** A lifecycle action on one of the caller's trainees, with the version's rules and the checked body. */
export class LifecycleCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly traineeId: string,
    readonly request: LifecycleAction,
  ) {}
}

/** Runs a lifecycle action through the trainee's state machine; returns the trainee after it. */
@CommandHandler(LifecycleCommand)
export class LifecycleHandler implements ICommandHandler<LifecycleCommand, Trainee> {
  constructor(private readonly infra: Infrastructure) {}

  execute(c: LifecycleCommand): Promise<Trainee> {
    const t = this.infra.trainees;
    switch (c.request.action) {
      case 'defer':
        return t.defer(c.caller, c.rules, c.traineeId, c.request.data);
      case 'withdraw':
        return t.withdraw(c.caller, c.rules, c.traineeId, c.request.data);
      case 'recommend':
        return t.recommendForAward(c.caller, c.rules, c.traineeId, c.request.data);
    }
  }
}
