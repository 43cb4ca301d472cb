import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { Trainee } from '@app/domain';
import { Infrastructure } from '../../infrastructure/infrastructure';

/** The lifecycle actions of the spec: defer, withdraw, recommend for QTS/EYTS. */
export type LifecycleAction = 'defer' | 'withdraw' | 'recommend';

export class LifecycleCommand {
  constructor(
    readonly action: LifecycleAction,
    readonly caller: Caller,
    readonly traineeId: string,
    readonly data: unknown,
  ) {}
}

/** Runs a lifecycle action through the trainee's state machine; returns the trainee after it. */
@CommandHandler(LifecycleCommand)
export class LifecycleHandler implements ICommandHandler<LifecycleCommand, Trainee> {
  constructor(private readonly infra: Infrastructure) {}

  execute(c: LifecycleCommand): Promise<Trainee> {
    const t = this.infra.trainees;
    switch (c.action) {
      case 'defer':
        return t.defer(c.caller, c.traineeId, c.data);
      case 'withdraw':
        return t.withdraw(c.caller, c.traineeId, c.data);
      case 'recommend':
        return t.recommendForAward(c.caller, c.traineeId, c.data);
    }
  }
}
