import type { Command } from 'commander';
import { londonDate } from '@app/providers/write';
import { ProviderCommandRejected } from '@app/providers/decider';
import type { TokenRecord } from '@app/providers/read';
import type { CliContext } from '../cli-context';

/**
 * A token's status as `token list` shows it: revoked, expired (its expiry date is today or
 * earlier, in Europe/London; docs/reference/API-FACTS.md §2.4–2.5) or active.
 */
export function tokenListStatus(token: Pick<TokenRecord, 'status' | 'expires_at'>, today: string): 'active' | 'revoked' | 'expired' {
  if (token.status === 'revoked') return 'revoked';
  return token.expires_at !== null && token.expires_at <= today ? 'expired' : 'active';
}

/**
 * `provider add|list` and `token issue|revoke|list` (docs/reference/API-FACTS.md §2): providers and
 * their API tokens, as events on the provider's stream; a token is printed once and never stored.
 */
export function registerProviderCommands(program: Command, ctx: CliContext): void {
  const { environment } = ctx;
  const provider = program.command('provider').description('providers (training organisations)');
  provider
    .command('add')
    .description('register a provider')
    .requiredOption('--ukprn <ukprn>', "the provider's 8-digit UKPRN")
    .requiredOption('--name <name>', "the provider's name")
    .action(async (opts: { ukprn: string; name: string }) => {
      // Run again after a busy store: its one append, refused, stored nothing (SQLite rolled its transaction back).
      await ctx.withStores((_stores, ops) => ops.addProvider(opts.ukprn, opts.name), { rerun: true });
      process.stdout.write(`Provider ${opts.ukprn} registered: ${opts.name.trim()}\n`);
    });
  provider
    .command('list')
    .description('list providers')
    .action(async () => {
      const providers = await ctx.withStores((stores) => stores.readModel.listProviders(), { rerun: true }); // a read
      for (const p of providers) process.stdout.write(`${p.ukprn}\t${p.name}\t${p.created_at}\n`);
    });

  const token = program.command('token').description('API tokens');
  token
    .command('issue')
    .description('issue a token for a provider; prints the token, alone, as the last line')
    .requiredOption('--ukprn <ukprn>', "the provider's UKPRN")
    .option('--expires-at <date>', 'expiry date YYYY-MM-DD, after today and at most 6 months ahead (default: 6 months ahead)')
    .action(async (opts: { ukprn: string; expiresAt?: string }) => {
      // Run again after a busy store: its one append, refused, stored nothing (SQLite rolled its transaction back).
      const issued = await ctx.withStores((_stores, ops) => ops.issueToken(opts.ukprn, environment, opts.expiresAt), { rerun: true });
      process.stdout.write(
        `Token ${issued.token_id} issued for provider ${issued.ukprn}, valid until the day before ${issued.expires_at} ` +
          `(expires_at ${issued.expires_at}); it is shown once:\n${issued.token}\n`,
      );
    });
  token
    .command('revoke')
    .description('revoke a token by id')
    .requiredOption('--token-id <id>', 'the token id (see token list)')
    .action(async (opts: { tokenId: string }) => {
      // Run again after a busy store: its one append, refused, stored nothing (SQLite rolled its transaction back).
      const { ukprn } = await ctx.withStores((_stores, ops) => ops.revokeToken(opts.tokenId), { rerun: true });
      process.stdout.write(`Token ${opts.tokenId} of provider ${ukprn} revoked\n`);
    });
  token
    .command('list')
    .description("list a provider's tokens (never the tokens themselves)")
    .requiredOption('--ukprn <ukprn>', "the provider's UKPRN")
    .action(async (opts: { ukprn: string }) => {
      const tokens = await ctx.withStores(
        async ({ readModel: rm }) => {
          if (!(await rm.getProvider(opts.ukprn))) throw new ProviderCommandRejected(`No provider with UKPRN ${opts.ukprn}`);
          return rm.listTokens(opts.ukprn);
        },
        { rerun: true }, // reads
      );
      const today = londonDate(new Date());
      process.stdout.write('token_id\tstatus\tissued_at\texpires_at\tlast_used_at\trevoked_at\n');
      for (const t of tokens) {
        const cells = [
          t.token_id,
          tokenListStatus(t, today),
          t.issued_at,
          t.expires_at ?? 'never',
          t.last_used_at ?? '',
          t.revoked_at ?? '',
        ];
        process.stdout.write(`${cells.join('\t')}\n`);
      }
    });
}
