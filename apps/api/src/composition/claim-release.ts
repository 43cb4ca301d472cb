import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { SettledClaimRelease, TRAINEE_WRITE_PORTS, type TraineeWritePorts } from '@app/trainees/write';
import { LOGGER } from './tokens';

/**
 * This process's release of settled registration claims (libs/trainees/write/settled-claims.ts;
 * docs/DESIGN.md "Personal data"): armed by each claim the write path writes, run once at start
 * for the claims an earlier process left, stopped before the stores close. A failure is logged by
 * the error's name only and tried again a minute later.
 */
@Injectable()
export class ClaimRelease implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly release: SettledClaimRelease;

  constructor(@Inject(TRAINEE_WRITE_PORTS) ports: TraineeWritePorts, @Inject(LOGGER) logger: Logger) {
    this.release = new SettledClaimRelease(ports, (err) =>
      logger.error({ error: err instanceof Error ? err.name : typeof err }, 'releasing settled registration claims failed'),
    );
    ports.claimWritten = () => this.release.soon();
  }

  onApplicationBootstrap(): void {
    void this.release.runNow();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.release.stop();
  }
}
