import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Inside the data directory. */
export const SANDBOX_SIGNING_KEY_FILE = 'audit-signing-key.pem';

/** No file in production, or one without an Ed25519 private key. */
export class SigningKeyUnavailable extends Error {}

/** `file` null when the key was read. */
export interface AuditSigningKey {
  privateKey: KeyObject;
  created: string | null;
}

/**
 * `AUDIT_SIGNING_KEY_FILE`, a PKCS#8 PEM Ed25519 key (docs/operations.md "Signed digests"); without it, in the sandbox, one made on
 * first use in the data directory. {@link SigningKeyUnavailable} in production without it, for an unreadable file or another kind of
 * key, and for a key file its group or others have any permission on (docs/operations.md "File permissions").
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
 * Written whole (0600) in a private `mkdtemp` directory inside `dataDir`, then linked in place: no one reads half a key or plants the
 * draft. The first process to link wins; the others read its key. Throws {@link SigningKeyUnavailable}.
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

/** Names `file`, its mode and `chmod 600`. */
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
