import { randomBytes, randomUUID } from 'node:crypto';
import {
  decideProvider,
  defaultTokenExpiry,
  decodeProviderEvent,
  evolveProvider,
  initialProviderState,
  type ProviderCommand,
  type ProviderEvent,
  type ProviderState,
  providerStreamId,
} from '@app/providers/decider';
import { toEventData, type EventStore, newEventId, runCommand } from '@app/event-sourcing';
import { formatToken, hashToken, londonDate } from './tokens';

/** The token read model's `getToken`. */
export interface TokenLookup {
  getToken(tokenId: string): Promise<{ ukprn: string } | null>;
}

/** `token` is returned once and never stored. */
export interface IssuedToken {
  token_id: string;
  ukprn: string;
  /** `YYYY-MM-DD`: it authenticates until the day before. */
  expires_at: string;
  token: string;
}

/**
 * Operator actions on providers and tokens (docs/operations.md "Providers and tokens"), for the admin CLI and the sandbox bootstrap.
 * Throws `ProviderCommandRejected` from the domain.
 */
export class ProviderOperations {
  constructor(
    private readonly eventStore: EventStore,
    private readonly readModel: TokenLookup,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** 8-digit UKPRN, non-blank name. */
  async addProvider(ukprn: string, name: string): Promise<void> {
    await this.run(ukprn, { type: 'RegisterProvider', ukprn, name, now: this.now() });
  }

  /** `expiresAt` `YYYY-MM-DD`: after today and at most six months ahead (API-FACTS §2.6), by default six months. */
  async issueToken(ukprn: string, environment: string, expiresAt?: string): Promise<IssuedToken> {
    const token = formatToken(environment, randomBytes(32));
    const token_id = randomUUID();
    const instant = this.clock();
    const today = londonDate(instant);
    const expires_at = expiresAt ?? defaultTokenExpiry(today);
    const now = instant.toISOString();
    await this.run(ukprn, { type: 'IssueToken', ukprn, token_id, token_hash: hashToken(token), expires_at, today, now });
    return { token_id, ukprn, expires_at, token };
  }

  /** At most once a day, Europe/London (API-FACTS §2.7); true when `TokenUsed` was appended (not for an unknown or revoked token). */
  async recordTokenUse(ukprn: string, tokenId: string): Promise<boolean> {
    const instant = this.clock();
    const command: ProviderCommand = {
      type: 'RecordTokenUse',
      ukprn,
      token_id: tokenId,
      on: londonDate(instant),
      now: instant.toISOString(),
    };
    return (await this.run(ukprn, command)) > 0;
  }

  /** The provider is found through the token read model, so the issue must have been projected (the CLI catches up first). */
  async revokeToken(tokenId: string): Promise<{ ukprn: string }> {
    const token = await this.readModel.getToken(tokenId);
    if (!token) throw new UnknownToken(tokenId);
    await this.run(token.ukprn, { type: 'RevokeToken', ukprn: token.ukprn, token_id: tokenId, now: this.now() });
    return { ukprn: token.ukprn };
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /** The number of events appended. */
  private async run(ukprn: string, command: ProviderCommand): Promise<number> {
    const outcome = await runCommand<ProviderState, ProviderEvent>(this.eventStore, providerStreamId(ukprn), {
      initialState: initialProviderState,
      evolve: evolveProvider,
      decode: decodeProviderEvent,
      decide: (state) => decideProvider(command, state),
      encode: (events) => toEventData(events, { occurredAt: command.now, providerUkprn: ukprn }, newEventId),
    });
    return outcome.events.length;
  }
}

export class UnknownToken extends Error {
  constructor(readonly tokenId: string) {
    super(`No token with id ${tokenId}`);
  }
}
