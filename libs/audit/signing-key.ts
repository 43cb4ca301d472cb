import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file the sandbox makes its signing key in, inside the data directory. */
export const SANDBOX_SIGNING_KEY_FILE = 'audit-signing-key.pem';

/** The signing key cannot be had: no file in production, or a file that holds no Ed25519 private key. */
export class SigningKeyUnavailable extends Error {}

/** The key digests are signed with, and the file the sandbox made it in (null when it was read). */
export interface AuditSigningKey {
  privateKey: KeyObject;
  created: string | null;
}

/**
 * The Ed25519 key signed digests are made with (docs/operations.md "Signed digests"):
 * `AUDIT_SIGNING_KEY_FILE` (`signingKeyFile`), a PKCS#8 PEM private key (`openssl genpkey
 * -algorithm ed25519`); without it, in the sandbox, `<dataDir>/audit-signing-key.pem`, made on
 * first use (its `created` says so); in production none (throws {@link SigningKeyUnavailable}).
 * Throws {@link SigningKeyUnavailable} for a file that cannot be read or holds another kind of key,
 * and for an `AUDIT_SIGNING_KEY_FILE` its group or other users have any permission on
 * (docs/operations.md "File permissions").
 */
export function loadAuditSigningKey(config: { dataDir: string; signingKeyFile: string | null; production: boolean }): AuditSigningKey {
  if (config.signingKeyFile !== null) {
    refuseOpenKeyFile(config.signingKeyFile);
    return { privateKey: readKey(config.signingKeyFile), created: null };
  }
  if (config.production) {
    throw new SigningKeyUnavailable('AUDIT_SIGNING_KEY_FILE: required in production to sign digests (an Ed25519 private key, PEM)');
  }
  const file = join(config.dataDir, SANDBOX_SIGNING_KEY_FILE);
  if (existsSync(file)) return { privateKey: readKey(file), created: null };
  return makeSandboxKey(config.dataDir, file);
}

/**
 * Makes the sandbox's signing key in `file`: written whole (mode 0600) in a directory of its own
 * with an unpredictable name (`mkdtemp`, mode 0700) inside `dataDir`, then linked in place, so
 * another process never reads half a key and no one can plant or watch the draft. A process that
 * links first wins; the others read its key. Throws {@link SigningKeyUnavailable}.
 */
function makeSandboxKey(dataDir: string, file: string): AuditSigningKey {
  let drafts: string | null = null;
  try {
    mkdirSync(dataDir, { recursive: true });
    drafts = mkdtempSync(join(dataDir, `.${SANDBOX_SIGNING_KEY_FILE}-`));
    const draft = join(drafts, SANDBOX_SIGNING_KEY_FILE);
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(draft, privateKey.export({ format: 'pem', type: 'pkcs8' }), { flag: 'wx', mode: 0o600 });
    linkSync(draft, file);
    return { privateKey: readKey(file), created: file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new SigningKeyUnavailable(`Cannot make ${file}: ${(err as Error).message}`);
    return { privateKey: readKey(file), created: null };
  } finally {
    if (drafts !== null) rmSync(drafts, { recursive: true, force: true });
  }
}

/** Throws {@link SigningKeyUnavailable} naming `file`, its mode and `chmod 600` when anyone but its owner has a permission on it. */
function refuseOpenKeyFile(file: string): void {
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0;
  if ((mode & 0o077) === 0) return;
  throw new SigningKeyUnavailable(
    `AUDIT_SIGNING_KEY_FILE: ${file} can be read or written by users other than its owner (mode ${mode.toString(8).padStart(4, '0')}); make it its owner's only: chmod 600 ${file}`,
  );
}

function readKey(file: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SigningKeyUnavailable(`the audit signing key: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let key: KeyObject | null = null;
  try {
    key = createPrivateKey(pem);
  } catch {
    // Not a private key in PEM: refused below, as another kind of key is.
  }
  if (key?.asymmetricKeyType !== 'ed25519') {
    throw new SigningKeyUnavailable(
      `the audit signing key: ${file} must hold an Ed25519 private key in PEM (make one with: openssl genpkey -algorithm ed25519)`,
    );
  }
  return key;
}
