import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { load } from 'js-yaml';
import { commandsOf, stagesOf, type Stage } from './dockerfile';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface ComposeService {
  environment?: Record<string, string>;
  volumes?: string[];
  secrets?: unknown;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** The image the API and the projector run: the Dockerfile's last stage. */
function runtimeStage(): Stage {
  return stagesOf(read('Dockerfile')).at(-1)!;
}

/** The user the last stage runs as. */
function userOf(stage: Stage): string {
  return stage.instructions
    .filter((i) => i.keyword === 'USER')
    .at(-1)!
    .args.split(':')[0];
}

/** What the RUNs of `stage` before its USER do to `dir`: made, its owner (`user:group`), its mode. */
function madeAs(stage: Stage, dir: string): { made: boolean; owner: string | null; mode: string | null } {
  const found = { made: false, owner: null as string | null, mode: null as string | null };
  const user = stage.instructions.findIndex((i) => i.keyword === 'USER');
  for (const run of stage.instructions.slice(0, user).filter((i) => i.keyword === 'RUN')) {
    for (const [command, ...words] of commandsOf(run.args)) {
      const operands = words.filter((w) => !w.startsWith('-'));
      if (command === 'mkdir' && operands.includes(dir)) found.made = true;
      if (command === 'chown' && operands.slice(1).includes(dir)) found.owner = operands[0];
      if (command === 'chmod' && operands.slice(1).includes(dir)) found.mode = operands[0];
    }
  }
  return found;
}

/**
 * The image and docker-compose.yml agree on what the processes need at run time (docs/operations.md "Run the production stack"):
 * the Dockerfile is read with test/ops/dockerfile.ts, the compose file with js-yaml.
 */
describe('the container image and docker-compose.yml', () => {
  const compose = load(read('docker-compose.yml')) as ComposeFile;

  it.each(['api', 'projector'])(
    "%s: DATA_KEY_FILE lies in a named volume's directory, which the image makes, owned by its user alone (a new volume takes that)",
    (name) => {
      const service = compose.services[name];
      const keyFile = service.environment?.DATA_KEY_FILE ?? '';
      const mount = (service.volumes ?? []).map((v) => v.split(':')).find(([, target]) => target === posix.dirname(keyFile));
      expect({ keyFile, mount, secrets: service.secrets }).toEqual({
        keyFile: expect.stringMatching(/^\//),
        mount: [expect.any(String), dirname(keyFile)],
        secrets: undefined,
      });
      expect(Object.keys(compose.volumes ?? {})).toContain(mount![0]);
      const stage = runtimeStage();
      const user = userOf(stage);
      expect(madeAs(stage, mount![1])).toEqual({ made: true, owner: `${user}:${user}`, mode: '0700' });
    },
  );

  it('the API and the projector share one key volume, so a rotation in one is read by the other', () => {
    const keyVolume = (name: string) => {
      const keyDir = posix.dirname(compose.services[name].environment!.DATA_KEY_FILE);
      return (compose.services[name].volumes ?? []).find((v) => v.split(':')[1] === keyDir)?.split(':')[0];
    };
    expect(keyVolume('api')).toEqual(expect.any(String));
    expect(keyVolume('projector')).toBe(keyVolume('api'));
    expect(compose.services.projector.environment!.DATA_KEY_FILE).toBe(compose.services.api.environment!.DATA_KEY_FILE);
  });

  it('the Dockerfile reader finds stages, joins continued lines and skips comments', () => {
    const stages = stagesOf(
      ['FROM a AS build', 'RUN x \\', '# a comment', ' && y', 'from b', 'USER node', 'RUN mkdir -p /k && chown node:node /k'].join('\n'),
    );
    expect(stages).toEqual([
      { name: 'build', instructions: [{ keyword: 'RUN', args: 'x && y' }] },
      {
        name: null,
        instructions: [
          { keyword: 'USER', args: 'node' },
          { keyword: 'RUN', args: 'mkdir -p /k && chown node:node /k' },
        ],
      },
    ]);
    expect(madeAs(stages[1], '/k')).toEqual({ made: false, owner: null, mode: null });
  });
});
