import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import {
  KeyringFile,
  retireKeyVersion,
  rotateKeys,
  SERVICE_KEY_BYTES,
  type RetirementReport,
  type RotationPorts,
  type RotationReport,
} from '@app/keys';
import { webhookOperations } from '@app/runtime/process';
import { backupFiles, type Stores } from '@app/composition';
import { keptBackupsIn } from '@app/backup';
import { type CliContext, CliError } from '../cli-context';

/**
 * `keys init` (docs/operations.md "The service key") makes the keyring file `DATA_KEY_FILE` names; `keys rotate|retire`
 * (docs/operations.md "Rotating the service key") read the arguments, run `rotateKeys` or `retireKeyVersion` (libs/keys) on the
 * keyring file and the configured stores, and print what they did.
 */
export function registerKeyCommands(program: Command, ctx: CliContext): void {
  const keys = program.command('keys').description('the service keyring: make it, rotate to a new version, retire an old one');
  keys
    .command('init')
    .description('make the service key in the file DATA_KEY_FILE names (32 random bytes, mode 0600), once: never replaces a file')
    .action(() => {
      process.stdout.write(`${initKeyring(ctx.env.DATA_KEY_FILE?.trim() || null)}\n`);
    });
  keys
    .command('rotate')
    .description('add a new service key version, then wrap every data key and webhook secret again under it (online)')
    .option('--resume', 'add no version: wrap again under the current one what is still under an older one')
    .action(async (opts: { resume?: boolean }) => {
      // Run again after a busy store: a key or secret is wrapped again only while under an older version.
      const report = await rotateKeys(ctx.keyringFile(), (work) => ctx.withStores((stores) => work(portsOf(ctx, stores)), rerunnable), {
        resume: opts.resume,
      });
      process.stdout.write(rotationText(report));
    });
  keys
    .command('retire')
    .description('take an old service key version out of the keyring, once nothing is wrapped under it and no backup needs it')
    .argument('<version>', 'the version (see keys rotate)')
    .option('--breaking-backups <names>', 'comma-separated names of the backups in BACKUP_DIR that are to stop opening (retire names them)')
    .action(async (text: string, opts: { breakingBackups?: string }) => {
      if (!/^[1-9]\d{0,8}$/.test(text)) throw new CliError(`the version must be a whole number ≥ 1, got '${text.slice(0, 20)}'`);
      const backupDir = ctx.env.BACKUP_DIR?.trim() || null;
      const breaking = (opts.breakingBackups ?? '').split(',').map((n) => n.trim().replace(/\/+$/, '').split('/').pop()!);
      // Run again after a busy store: nothing is written before every count and check is done.
      const report = await retireKeyVersion(
        ctx.keyringFile(),
        Number(text),
        (work) =>
          ctx.withStores(
            (stores) =>
              work({ ...portsOf(ctx, stores), backups: backupDir ? keptBackupsIn(backupFiles(), backupDir, ctx.serviceKey()) : null }),
            rerunnable,
          ),
        { breakingBackups: breaking.filter((n) => n !== '') },
      );
      process.stdout.write(retirementText(report));
    });
}

const rerunnable = { catchUp: false, rerun: true };

/**
 * Makes the keyring `file` holding one new key (version 1), durably, mode 0600, with its directory where none is; returns what to print.
 * {@link CliError} without a file, where one cannot be made, or where a file is already: a key in use would be lost with all it opens.
 */
function initKeyring(file: string | null): string {
  if (file === null) {
    throw new CliError('DATA_KEY_FILE: set it to the file to make (the sandbox without it makes <DATA_DIR>/data-key at its first start)');
  }
  let made: boolean;
  try {
    made = new KeyringFile(file).createIfAbsent(`${randomBytes(SERVICE_KEY_BYTES).toString('base64')}\n`);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new CliError(`DATA_KEY_FILE: cannot make ${file} (${code}): its directory must be writable by this user`);
  }
  if (!made) {
    throw new CliError(`DATA_KEY_FILE: ${file} already exists, and keys init never replaces a key (keys rotate adds a version)`);
  }
  return `Made the service key in ${file} (mode 0600). Keep a copy apart from the data: without it nothing sealed opens.`;
}

/** What a rotation wraps again and a retirement counts, on `stores`, with the keyring read again before each wrap. */
function portsOf(ctx: CliContext, stores: Stores): RotationPorts {
  const { keyring, file } = ctx.serviceKeyFile();
  return { dataKeys: stores.personalData?.keys ?? null, secrets: webhookOperations('sandbox', stores, keyring, null, file) };
}

/** What `keys rotate` prints: the counts, then what the cadence of docs/operations.md does next. */
function rotationText(report: RotationReport): string {
  const { current, dataKeys, secrets, retireNext, previous } = report;
  const lines = [
    `Version ${current} is current.`,
    dataKeys
      ? `Data keys: ${dataKeys.rewrapped} wrapped again, ${dataKeys.current} under version ${current} already, ${dataKeys.changed} changed meanwhile (erased or rewrapped: left as they are).`
      : 'Data keys: none (this store seals no personal data).',
    `Webhook secrets: ${secrets.resealed} sealed again, ${secrets.current} under version ${current} already.`,
    `Every process reading this keyring file wraps new keys under version ${current} from now on; restart any process given a copy of the file.`,
  ];
  if (retireNext.length > 0)
    lines.push(
      `On the cadence of docs/operations.md "Rotating the service key", retire the version before the previous one now: ` +
        `${retireNext.map((v) => `admin keys retire ${v}`).join(', then ')}; keep version ${previous} until the next rotation, for the backups taken under it.`,
    );
  else if (previous !== null)
    lines.push(
      `Keep version ${previous} until the next rotation, for the backups taken under it; retire it then (docs/operations.md "Rotating the service key").`,
    );
  else lines.push('No older version is held.');
  return `${lines.join('\n')}\n`;
}

/** What `keys retire` prints: the version retired, then the backups it looked at. */
function retirementText(report: RetirementReport): string {
  const { version, file, backups } = report;
  const lines = [`Version ${version} retired: it is no longer in ${file}; destroy every other copy of that file's old version.`];
  if (backups === null)
    lines.push(
      `No backup was checked (BACKUP_DIR is not set): any backup that needs version ${version} no longer opens (backup verify, backup restore).`,
    );
  else if (backups.broken.length === 0) lines.push(`Backups in ${backups.dir}: none needed version ${version}.`);
  else lines.push(`Backups in ${backups.dir} that no longer open, as named: ${backups.broken.map((b) => b.name).join(', ')}.`);
  return `${lines.join('\n')}\n`;
}
