import type { Command } from 'commander';
import { PROVIDER_EVENT_TYPES } from '@app/trainees/decider';
import { parseWebhookPorts, webhookOperations } from '@app/runtime/process';
import { resetOutboxToLog } from '@app/webhooks/delivery';
import { type CliContext, CliError } from '../cli-context';

/** Most deliveries `webhook deliveries` lists. */
const DELIVERIES_LIMIT_MAX = 1000;

/** The `--events` list: comma-separated change types, or `all` (or nothing): every type. */
function eventTypesOf(text: string | undefined): string[] {
  if (text === undefined || text.trim() === '' || text.trim() === 'all') return [];
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/**
 * `webhook add|list|disable|deliveries|seal-secrets` (docs/change-feed.md "Webhooks"): a provider's endpoints, as
 * events on each endpoint's stream; the signing secret is printed once, when the endpoint is added.
 */
export function registerWebhookCommands(program: Command, ctx: CliContext): void {
  const webhook = program.command('webhook').description("webhook endpoints: push delivery of a provider's change feed");
  registerAdd(webhook, ctx);
  registerList(webhook, ctx);
  registerDisable(webhook, ctx);
  registerDeliveries(webhook, ctx);
  registerSealSecrets(webhook, ctx);
  registerResetOutbox(webhook, ctx);
}

/**
 * `webhook reset-outbox` (docs/operations.md "Backups and restore"): an outbox whose checkpoint is beyond the log's head, after a log
 * restored older than it, set back to the head with the endpoints the log holds; nothing changed otherwise. Run with the service
 * stopped: a running dispatcher keeps its own position.
 */
function registerResetOutbox(webhook: Command, ctx: CliContext): void {
  webhook
    .command('reset-outbox')
    .description("set the webhook outbox back to the log's head after a restore left it ahead (run with the service stopped)")
    .action(async () => {
      // Run again after a busy store: a second run finds the checkpoint at the head and changes nothing.
      const outcome = await ctx.withStores(
        async (stores) => {
          const outbox = await stores.webhookOutbox();
          try {
            return await resetOutboxToLog(outbox, stores.storedLog);
          } finally {
            await outbox.close();
          }
        },
        { catchUp: false, rerun: true },
      );
      process.stdout.write(
        outcome.reset
          ? `Webhook outbox reset from position ${outcome.from} to the log's head ${outcome.head}: ${outcome.endpoints} endpoint(s) ` +
              `as the log holds them, ${outcome.deliveriesDropped} delivery(ies) of events past the head dropped.\n`
          : `Webhook outbox not beyond the log's head (${outcome.from} ≤ ${outcome.head}): nothing to reset.\n`,
      );
    });
}

/**
 * `webhook seal-secrets`: seals every secret stored in plain text (or before versions) for its
 * endpoint (docs/operations.md "Rotating the service key"); the dispatcher refuses plain ones.
 */
function registerSealSecrets(webhook: Command, ctx: CliContext): void {
  webhook
    .command('seal-secrets')
    .description('seal every endpoint secret stored in plain text or sealed before versions, bound to its endpoint')
    .action(async () => {
      // Run again after a busy store: a secret is sealed again only while not sealed under the current version.
      const { keyring, file } = ctx.serviceKeyFile();
      const sealed = await ctx.withStores((stores) => webhookOperations('sandbox', stores, keyring, null, file).resealSecrets(), {
        rerun: true,
      });
      const plain = sealed.before.get('plain') ?? 0;
      process.stdout.write(`Webhook secrets: ${sealed.resealed} sealed (${plain} were in plain text), ${sealed.current} sealed already.\n`);
    });
}

/** `webhook add`: prints the new endpoint and its secret, once. */
function registerAdd(webhook: Command, ctx: CliContext): void {
  webhook
    .command('add')
    .description('add an endpoint for a provider; prints its id and its signing secret (shown once)')
    .requiredOption('--ukprn <ukprn>', "the provider's UKPRN")
    .requiredOption('--url <url>', 'where changes are POSTed (https://; http:// only in the sandbox)')
    .option('--events <types>', `comma-separated change types (${PROVIDER_EVENT_TYPES.join(', ')}), or all`, 'all')
    .option('--api-version <version>', 'the API version whose field names the payload uses (default: the latest)')
    .action(async (opts: { ukprn: string; url: string; events?: string; apiVersion?: string }) => {
      const { keyring, file } = ctx.serviceKeyFile();
      const added = await ctx.withStores((stores) =>
        webhookOperations(ctx.environment === 'production' ? 'production' : 'sandbox', stores, keyring, portsOf(ctx), file).add({
          ukprn: opts.ukprn,
          url: opts.url,
          eventTypes: eventTypesOf(opts.events),
          apiVersion: opts.apiVersion,
        }),
      );
      const types = added.event_types.length === 0 ? 'every change' : added.event_types.join(', ');
      process.stdout.write(
        `Webhook endpoint ${added.endpoint_id} added for provider ${added.ukprn}: ${added.url} (${types}; ${added.api_version}).\n` +
          `Its signing secret is shown once:\n${added.secret}\n`,
      );
    });
}

/** `webhook list`: every endpoint, or one provider's, as tab-separated lines. */
function registerList(webhook: Command, ctx: CliContext): void {
  webhook
    .command('list')
    .description('list endpoints (never their secrets)')
    .option('--ukprn <ukprn>', 'only this provider’s')
    .action(async (opts: { ukprn?: string }) => {
      const endpoints = await ctx.withStores((stores) => webhookOperations('sandbox', stores, ctx.serviceKey()).list(opts.ukprn), {
        catchUp: false,
      });
      process.stdout.write('endpoint_id\tukprn\tstatus\turl\tevents\tapi_version\tadded_at\tdisabled_reason\n');
      for (const e of endpoints) {
        const cells = [
          e.endpoint_id,
          e.ukprn,
          e.status,
          e.url,
          e.event_types.join(',') || 'all',
          e.api_version,
          e.added_at,
          e.disabled_reason ?? '',
        ];
        process.stdout.write(`${cells.join('\t')}\n`);
      }
    });
}

/** `webhook disable <endpoint_id>`. */
function registerDisable(webhook: Command, ctx: CliContext): void {
  webhook
    .command('disable')
    .description('disable an endpoint: no more deliveries; its pending ones are abandoned (the changes stay in the feed)')
    .argument('<endpoint_id>', 'the endpoint id (see webhook list)')
    .option('--reason <text>', 'why (kept with the endpoint)', 'disabled by an operator')
    .action(async (endpointId: string, opts: { reason: string }) => {
      const disabled = await ctx.withStores((stores) =>
        webhookOperations('sandbox', stores, ctx.serviceKey()).disable(endpointId, opts.reason),
      );
      process.stdout.write(
        disabled ? `Webhook endpoint ${endpointId} disabled\n` : `Webhook endpoint ${endpointId} was already disabled\n`,
      );
    });
}

/** `webhook deliveries <endpoint_id>`: the newest deliveries and their attempts. */
function registerDeliveries(webhook: Command, ctx: CliContext): void {
  webhook
    .command('deliveries')
    .description("an endpoint's deliveries, newest first: status, attempts, last answer")
    .argument('<endpoint_id>', 'the endpoint id')
    .option('--limit <n>', `how many (1–${DELIVERIES_LIMIT_MAX})`, '50')
    .action(async (endpointId: string, opts: { limit: string }) => {
      const limit = Number(opts.limit);
      if (!/^\d+$/.test(opts.limit) || limit < 1 || limit > DELIVERIES_LIMIT_MAX) {
        throw new CliError(`--limit must be a whole number from 1 to ${DELIVERIES_LIMIT_MAX}, got '${opts.limit.slice(0, 40)}'`);
      }
      const deliveries = await ctx.withStores(
        async (stores) => {
          const outbox = await stores.webhookOutbox();
          try {
            return await outbox.deliveries(endpointId, limit);
          } finally {
            await outbox.close();
          }
        },
        { catchUp: false },
      );
      process.stdout.write('message_id\ttrainee_id\tstatus\tattempts\tlast_status\tlast_error\tlast_attempt_at\tdelivered_at\n');
      for (const d of deliveries) {
        const when = (t: number | null) => (t === null ? '' : new Date(t).toISOString());
        const cells = [
          d.message_id,
          d.trainee_id,
          d.status,
          d.attempts,
          d.last_status ?? '',
          d.last_error ?? '',
          when(d.last_attempt_at),
          when(d.delivered_at),
        ];
        process.stdout.write(`${cells.join('\t')}\n`);
      }
    });
}

/**
 * `WEBHOOK_PORTS` as the API reads it (docs/change-feed.md "Where a webhook may point"); throws
 * {@link CliError} when it is not a list of ports.
 */
function portsOf(ctx: CliContext): readonly number[] | null {
  const ports = parseWebhookPorts(ctx.env.WEBHOOK_PORTS);
  if (typeof ports === 'string') throw new CliError(`WEBHOOK_PORTS: ${ports}`);
  return ports;
}
