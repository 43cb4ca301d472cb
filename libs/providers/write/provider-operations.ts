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

/** What revoking needs of the token read model: a token's owner by id (the read model's `getToken`). */
export interface TokenLookup {
  getToken(tokenId: string): Promise<{ ukprn: string } | null>;
}

/** A token just issued: the plain token is returned once and never stored. */
export interface IssuedToken {
  token_id: string;
  ukprn: string;
  /** The token's expiry date, `YYYY-MM-DD` (it authenticates until the day before). */
  expires_at: string;
  token: string;
}

/**
 * Operator actions on providers and tokens (docs/operations.md "Providers and tokens"; the token
 * rules: docs/reference/API-FACTS.md §2), shared by the admin CLI and the sandbox bootstrap. Each
 * appends events to `provider-<ukprn>`; the projector turns them into the provider/token read
 * model. Errors: `ProviderCommandRejected` from the domain.
 */
export class ProviderOperations {
  constructor(
    private readonly eventStore: EventStore,
    private readonly readModel: TokenLookup,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Registers a provider (8-digit UKPRN, non-blank name). */
  async addProvider(ukprn: string, name: string): Promise<void> {
    await this.run(ukprn, { type: 'RegisterProvider', ukprn, name, now: this.now() });
  }

  /**
   * Issues a token `<environment>_<64 hex>` for the provider; only its SHA-256 hash is stored. It
   * expires on `expiresAt` (`YYYY-MM-DD`; default six months after today in Europe/London), which
   * must be after today and at most six months ahead (API-FACTS §2.6; else `ProviderCommandRejected`).
   */
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

  /**
   * Records that token `tokenId` of `ukprn` authenticated a request today (Europe/London), at most
   * once a day (API-FACTS §2.7): appends `TokenUsed` unless the token is unknown, revoked or its use
   * today is already recorded. Returns whether an event was appended.
   */
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

  /**
   * Revokes a token by id. The provider is found through the token read model, so the token's
   * issue must have been projected (the CLI catches up before calling this).
   */
  async revokeToken(tokenId: string): Promise<{ ukprn: string }> {
    const token = await this.readModel.getToken(tokenId);
    if (!token) throw new UnknownToken(tokenId);
    await this.run(token.ukprn, { type: 'RevokeToken', ukprn: token.ukprn, token_id: tokenId, now: this.now() });
    return { ukprn: token.ukprn };
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /** Runs `command` on the provider's stream; returns the number of events appended. */
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

/** No token with this id. */
export class UnknownToken extends Error {
  constructor(readonly tokenId: string) {
    super(`No token with id ${tokenId}`);
  }
}
