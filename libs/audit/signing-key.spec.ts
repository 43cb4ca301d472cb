import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAuditSigningKey, SANDBOX_SIGNING_KEY_FILE, SigningKeyUnavailable } from './signing-key';

describe('the audit signing key', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'signing-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const publicOf = (k: ReturnType<typeof loadAuditSigningKey>) => createPublicKey(k.privateKey).export({ format: 'jwk' }).x;

  it('is made once in the sandbox, readable by its owner only, and read back the same after', () => {
    const made = loadAuditSigningKey({ dataDir: dir, signingKeyFile: null, production: false });
    expect(made.created).toBe(join(dir, SANDBOX_SIGNING_KEY_FILE));
    expect(statSync(made.created!).mode & 0o777).toBe(0o600);
    const again = loadAuditSigningKey({ dataDir: dir, signingKeyFile: null, production: false });
    expect(again.created).toBeNull();
    expect(publicOf(again)).toBe(publicOf(made));
  });

  it('is drafted under a name no one can foresee: a file planted where a draft could be expected stops nothing', () => {
    const file = join(dir, SANDBOX_SIGNING_KEY_FILE);
    const planted = [`${file}.${process.pid}.draft`, `${file}.draft`, `${file}.tmp`];
    for (const name of planted) writeFileSync(name, 'planted');
    const made = loadAuditSigningKey({ dataDir: dir, signingKeyFile: null, production: false });
    expect(made.created).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual([SANDBOX_SIGNING_KEY_FILE, ...planted.map((p) => p.slice(dir.length + 1))].sort());
  });

  it('is read from AUDIT_SIGNING_KEY_FILE, and production has no other', () => {
    const file = join(dir, 'key.pem');
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    const read = loadAuditSigningKey({ dataDir: dir, signingKeyFile: file, production: true });
    expect(publicOf(read)).toBe(createPublicKey(privateKey).export({ format: 'jwk' }).x);
    expect(() => loadAuditSigningKey({ dataDir: dir, signingKeyFile: null, production: true })).toThrow(/required in production/);
  });

  it('refuses an AUDIT_SIGNING_KEY_FILE its group or other users may read or write, in production and the sandbox alike', () => {
    const file = join(dir, 'key.pem');
    writeFileSync(file, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    for (const mode of [0o640, 0o604, 0o644, 0o660]) {
      chmodSync(file, mode);
      for (const production of [true, false]) {
        expect(() => loadAuditSigningKey({ dataDir: dir, signingKeyFile: file, production })).toThrow(SigningKeyUnavailable);
        expect(() => loadAuditSigningKey({ dataDir: dir, signingKeyFile: file, production })).toThrow(
          `AUDIT_SIGNING_KEY_FILE: ${file} can be read or written by users other than its owner (mode 0${mode.toString(8)}); make it its owner's only: chmod 600 ${file}`,
        );
      }
    }
    chmodSync(file, 0o400);
    expect(loadAuditSigningKey({ dataDir: dir, signingKeyFile: file, production: true }).created).toBeNull();
  });

  it('refuses a file that is missing, not PEM, or another kind of key', () => {
    const rsa = join(dir, 'rsa.pem');
    writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }), {
      mode: 0o600,
    });
    const junk = join(dir, 'junk.pem');
    writeFileSync(junk, 'not a key', { mode: 0o600 });
    for (const [file, message] of [
      [join(dir, 'none.pem'), /cannot read/],
      [junk, /must hold an Ed25519 private key/],
      [rsa, /must hold an Ed25519 private key/],
    ] as const) {
      expect(() => loadAuditSigningKey({ dataDir: dir, signingKeyFile: file, production: false })).toThrow(SigningKeyUnavailable);
      expect(() => loadAuditSigningKey({ dataDir: dir, signingKeyFile: file, production: false })).toThrow(message);
    }
  });
});
