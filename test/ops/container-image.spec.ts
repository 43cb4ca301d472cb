import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** The top-level names .dockerignore leaves out of the build context (its patterns here are plain names). */
function ignoredNames(): Set<string> {
  return new Set(
    read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#')),
  );
}

/**
 * Whether `path` (relative to the last WORKDIR) is in the image `stage` makes, by its COPY instructions, as the Dockerfile reference
 * has them: a directory source copies its contents into the destination; a file goes to the destination, or into it when the
 * destination ends with `/` or there are several sources. A copy from another stage is taken to hold what lies under its destination.
 */
function imageHas(stage: Stage, path: string): boolean {
  let workdir = '/';
  const ignored = ignoredNames();
  for (const { keyword, args } of stage.instructions) {
    if (keyword === 'WORKDIR') workdir = posix.resolve(workdir, args);
    if (keyword !== 'COPY') continue;
    const words = args.split(/\s+/);
    const fromStage = words.some((w) => w.startsWith('--from='));
    const [dest, ...sources] = words.filter((w) => !w.startsWith('--')).reverse();
    const target = posix.resolve(workdir, path);
    const destDir = posix.resolve(workdir, dest);
    for (const source of sources.reverse()) {
      if (fromStage) {
        if (target.startsWith(`${destDir}/`)) return true;
        continue;
      }
      if (ignored.has(source.split('/')[0]) || !existsSync(join(ROOT, source))) continue;
      if (statSync(join(ROOT, source)).isDirectory()) {
        if (target.startsWith(`${destDir}/`) && existsSync(join(ROOT, source, posix.relative(destDir, target)))) return true;
      } else if (target === (dest.endsWith('/') || sources.length > 1 ? posix.join(destDir, posix.basename(source)) : destDir)) {
        return true;
      }
    }
  }
  return false;
}

/** The package scripts the image runs: those starting a built program (`node dist/…`), and the `pre` script npm runs before each. */
function imageScripts(): Record<string, string> {
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  const programs = Object.keys(scripts).filter((name) => /^node dist\//.test(scripts[name]));
  return Object.fromEntries(
    programs.flatMap((name) => [`pre${name}`, name]).flatMap((name) => (scripts[name] ? [[name, scripts[name]]] : [])),
  );
}

/** The files a script's `node` commands run. */
function nodeFiles(script: string): string[] {
  return commandsOf(script)
    .filter(([command]) => command === 'node')
    .map(([, ...words]) => words.find((w) => !w.startsWith('-')))
    .filter((file): file is string => file !== undefined);
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

  it('the image holds every file the package scripts it runs need (npm start, npm run admin, npm run projector, their pre-scripts)', () => {
    const scripts = imageScripts();
    expect(Object.keys(scripts)).toEqual(expect.arrayContaining(['start', 'admin', 'preadmin', 'projector']));
    const stage = runtimeStage();
    const missing = Object.entries(scripts).flatMap(([name, script]) =>
      nodeFiles(script)
        .filter((f) => !imageHas(stage, f))
        .map((f) => `${name}: ${f}`),
    );
    expect(missing).toEqual([]);
  });

  it('the COPY reader: a directory gives its contents, a file its name, into a directory destination; .dockerignore counts', () => {
    const stage = stagesOf(
      ['FROM x', 'WORKDIR /app', 'COPY samples ./s', 'COPY package.json tsconfig.json ./', 'COPY dist ./dist'].join('\n'),
    )[0];
    expect(
      ['s/schools.csv', 'package.json', 'tsconfig.json', 'samples/schools.csv', 'dist/apps/api/src/main.js'].map((p) => imageHas(stage, p)),
    ).toEqual([true, true, true, false, false]);
  });

  it('the build pre-script, where there are no sources (as in the image), exits 0 and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'image-root-'));
    try {
      mkdirSync(join(dir, 'scripts'));
      copyFileSync(join(ROOT, 'scripts', 'build-if-needed.js'), join(dir, 'scripts', 'build-if-needed.js'));
      const run = spawnSync(process.execPath, [join(dir, 'scripts', 'build-if-needed.js')], { cwd: dir, encoding: 'utf8' });
      expect({ status: run.status, stderr: run.stderr, files: readdirSync(dir) }).toEqual({ status: 0, stderr: '', files: ['scripts'] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
