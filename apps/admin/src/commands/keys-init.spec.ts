import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServiceKey } from '@app/runtime/process';
import { runCli } from '../main';

/**
 * `admin keys init` (docs/operations.md "The service key"): the first step of a deployment whose key
 * lives in a directory of its own (docker-compose.yml's `keys` volume), run in-process as the built
 * program runs it.
 */
describe('admin keys init', () => {
  let dir: string;
  let out: string;
  let err: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keys-init-'));
    out = '';
    err = '';
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  });

  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  const init = (env: NodeJS.ProcessEnv) => runCli(['keys', 'init'], { DATA_DIR: join(dir, 'data'), ...env });

  it('makes DATA_KEY_FILE, mode 0600, holding one key the service reads, in a directory it makes where none is', async () => {
    const file = join(dir, 'keys', 'data-key');
    expect(await init({ DATA_KEY_FILE: file })).toBe(0);
    expect(err).toBe('');
    expect(out).toContain(`Made the service key in ${file} (mode 0600).`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { keyring } = loadServiceKey({ dataDir: join(dir, 'data'), dataKeyFile: file });
    expect({ current: keyring.current, versions: [...keyring.versions.keys()] }).toEqual({ current: 1, versions: [1] });
  });

  it('never replaces a file that is there: exit 1, the file as it was', async () => {
    const file = join(dir, 'data-key');
    writeFileSync(file, 'a key in use\n', { mode: 0o600 });
    expect(await init({ DATA_KEY_FILE: file })).toBe(1);
    expect(err).toBe(`Error: DATA_KEY_FILE: ${file} already exists, and keys init never replaces a key (keys rotate adds a version)\n`);
    expect(out).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('a key in use\n');
  });

  it('without DATA_KEY_FILE makes nothing: exit 1, saying what to set', async () => {
    expect(await init({})).toBe(1);
    expect(err).toMatch(/^Error: DATA_KEY_FILE: set it to the file to make/);
  });
});
