import type { Command } from 'commander';
import { KeyringError, withNewVersion, withoutVersion, writeKeyring, type ServiceKeyring } from '@app/personal-data';
import { webhookOperations } from '@app/runtime/process';
import type { Stores } from '@app/stores';
import { type CliContext, CliError } from '../cli-context';

/** Keys a rotation reads and rewraps at a time. */
const REWRAP_BATCH = 500;

/**
 * `keys rotate|retire` (docs/operations.md "Rotating the service key"): a new service key version,
 * every data key and webhook secret wrapped again under it while the service runs, and an old
 * version taken out of the keyring once nothing is wrapped under it.
 */
export function registerKeyCommands(program: Command, ctx: CliContext): void {
  const keys = program.command('keys').description('the service keyring: rotate to a new version, retire an old one');
  keys
    .command('rotate')
    .description('add a new service key version, then wrap every data key and webhook secret again under it (online)')
    .option('--resume', 'add no version: wrap again under the current one what is still under an older one')
    .action(async (opts: { resume?: boolean }) => {
      const loaded = ctx.serviceKeyFile();
      if (!opts.resume) written(loaded.file, withNewVersion(loaded.keyring));
      // Run again after a busy store: a key or secret is wrapped again only while under an older version (`--resume`).
      const report = await ctx.withStores((stores) => rewrapAll(ctx, stores), { catchUp: false, rerun: true });
      process.stdout.write(report);
    });
  keys
    .command('retire')
    .description('take an old service key version out of the keyring, once nothing is wrapped under it')
    .argument('<version>', 'the version (see keys rotate)')
    .action(async (text: string) => {
      const version = Number(text);
      if (!/^[1-9]\d{0,8}$/.test(text)) throw new CliError(`the version must be a whole number ≥ 1, got '${text.slice(0, 20)}'`);
      const loaded = ctx.serviceKeyFile();
      const next = keyringWithout(loaded.keyring, version);
      const left = await ctx.withStores((stores) => wrappedUnder(ctx, stores, version), { catchUp: false, rerun: true }); // reads
      if (left.keys > 0 || left.secrets > 0) {
        throw new CliError(
          `version ${version} still wraps ${left.keys} data keys and ${left.secrets} webhook secrets: run admin keys rotate --resume, then retire again`,
        );
      }
      written(loaded.file, next);
      process.stdout.write(
        `Version ${version} retired: it is no longer in ${loaded.file}; destroy every other copy of that file's old version.\n`,
      );
    });
}

/** Rewraps the data keys and reseals the webhook secrets under the current version; the report's text. */
async function rewrapAll(ctx: CliContext, stores: Stores): Promise<string> {
  const serviceKey = ctx.serviceKey();
  const current = serviceKey.current;
  const keys = stores.personalData ? await stores.personalData.keys.rewrapAll(REWRAP_BATCH) : null;
  const secrets = await webhookOperations('sandbox', stores, serviceKey).resealSecrets();
  // Version 0: a wrapped key of no known shape, which no retire names.
  const older = [...new Set([...(keys?.before.keys() ?? []), ...secrets.before.keys()])]
    .filter((v): v is number => typeof v === 'number' && v > 0 && v !== current)
    .sort((a, b) => a - b);
  const lines = [
    `Version ${current} is current.`,
    keys
      ? `Data keys: ${keys.rewrapped} wrapped again, ${keys.current} under version ${current} already, ${keys.changed} changed meanwhile (erased or rewrapped: left as they are).`
      : 'Data keys: none (this store seals no personal data).',
    `Webhook secrets: ${secrets.resealed} sealed again, ${secrets.current} under version ${current} already.`,
    older.length > 0
      ? `Restart every API and projector process so they wrap under version ${current}, run admin keys rotate --resume, then admin keys retire ${older.join(', ')}.`
      : 'Nothing was wrapped under an older version.',
  ];
  return `${lines.join('\n')}\n`;
}

/** How many data keys and webhook secrets are still wrapped under `version`. */
async function wrappedUnder(ctx: CliContext, stores: Stores, version: number): Promise<{ keys: number; secrets: number }> {
  const keys = stores.personalData ? await stores.personalData.keys.versionCounts() : new Map<number, number>();
  const secrets = await webhookOperations('sandbox', stores, ctx.serviceKey()).secretVersions();
  return { keys: keys.get(version) ?? 0, secrets: secrets.get(version) ?? 0 };
}

/** Writes `keyring` to `file`; throws {@link CliError} naming the file when it cannot (a read-only secrets mount). */
function written(file: string, keyring: ServiceKeyring): void {
  try {
    writeKeyring(file, keyring);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new CliError(
      `cannot write the keyring ${file} (${code}): run this where DATA_KEY_FILE is writable, then give every process the new file`,
    );
  }
}

function keyringWithout(keyring: ServiceKeyring, version: number): ServiceKeyring {
  try {
    return withoutVersion(keyring, version);
  } catch (err) {
    if (err instanceof KeyringError) throw new CliError(err.message);
    throw err;
  }
}
