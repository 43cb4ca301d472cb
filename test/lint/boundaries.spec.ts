import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** One import placed at a path of the tree, and the rule it must break (null: it must pass). */
interface Case {
  why: string;
  filePath: string;
  code: string;
  breaks: 'boundaries/dependencies' | 'no-restricted-syntax' | 'no-restricted-imports' | null;
  /** A word the message must hold (the part or module refused). */
  naming?: string;
}

const use = (from: string, names: string) => `import { ${names} } from '${from}';\nexport const used = [${names}];\n`;

const CASES: Case[] = [
  {
    why: 'the decider imports no contract (record ← decider ← contract)',
    filePath: 'libs/trainees/decider/probe.ts',
    code: use('@app/trainees/contract', 'contractFor'),
    breaks: 'boundaries/dependencies',
    naming: 'trainees/contract',
  },
  {
    why: 'the record imports no decider',
    filePath: 'libs/trainees/record/probe.ts',
    code: use('@app/trainees/decider', 'evolve'),
    breaks: 'boundaries/dependencies',
    naming: 'trainees/decider',
  },
  {
    why: 'the write path does not read the read side',
    filePath: 'libs/trainees/write/probe.ts',
    code: use('@app/trainees/read', 'findOwnTrainee'),
    breaks: 'boundaries/dependencies',
    naming: 'trainees/read',
  },
  {
    why: "a part never imports another part's insides",
    filePath: 'libs/trainees/contract/probe.ts',
    code: use('@app/trainees/decider/trainee.evolve', 'evolve'),
    breaks: 'boundaries/dependencies',
    naming: 'trainee.evolve.ts',
  },
  {
    why: 'another part through its face is fine',
    filePath: 'libs/trainees/contract/probe.ts',
    code: use('@app/trainees/decider', 'evolve'),
    breaks: null,
  },
  {
    why: 'a wing never imports another wing (providers know nothing of trainees)',
    filePath: 'libs/providers/decider/probe.ts',
    code: use('@app/trainees/decider', 'evolve'),
    breaks: 'boundaries/dependencies',
    naming: 'trainees/decider',
  },
  {
    why: 'a store adapter enters the runtime through its face',
    filePath: 'libs/stores/sqlite/probe.ts',
    code: use('@app/runtime/projector/projector', 'Projector'),
    breaks: 'boundaries/dependencies',
    naming: 'projector.ts',
  },
  {
    why: 'the runtime sits below the stores',
    filePath: 'libs/runtime/projector/probe.ts',
    code: use('@app/stores/sqlite', 'SqliteReadModel'),
    breaks: 'boundaries/dependencies',
    naming: 'stores/sqlite',
  },
  {
    why: 'the stores sit below the composition, which chooses among them',
    filePath: 'libs/stores/sqlite/probe.ts',
    code: use('@app/composition', 'openStores'),
    breaks: 'boundaries/dependencies',
    naming: 'composition',
  },
  {
    why: 'the sealing of personal data knows no wing (the erasure, above it, does)',
    filePath: 'libs/personal-data/probe.ts',
    code: use('@app/trainees/decider', 'evolve'),
    breaks: 'boundaries/dependencies',
    naming: 'trainees/decider',
  },
  {
    why: 'the keyring knows nothing of what its keys wrap: it counts and rewraps them through its ports',
    filePath: 'libs/keys/probe.ts',
    code: use('@app/personal-data', 'DataKeys'),
    breaks: 'boundaries/dependencies',
    naming: 'personal-data',
  },
  {
    why: 'the sealing of personal data takes its keys from the keyring',
    filePath: 'libs/personal-data/probe.ts',
    code: use('@app/keys', 'liveKeysOf'),
    breaks: null,
  },
  {
    why: 'the erasure enters the sealing through its face',
    filePath: 'libs/personal-data/erasure/probe.ts',
    code: use('@app/personal-data', 'ERASED'),
    breaks: null,
  },
  {
    why: 'the audit reads the log through its ports, never a store adapter',
    filePath: 'libs/audit/probe.ts',
    code: use('@app/stores/sqlite', 'verifyInThreads'),
    breaks: 'boundaries/dependencies',
    naming: 'stores/sqlite',
  },
  {
    why: 'the audit may read the trainee wing',
    filePath: 'libs/audit/probe.ts',
    code: use('@app/trainees/read', 'traineeTimeline'),
    breaks: null,
  },
  {
    why: 'a lib never imports an app',
    filePath: 'libs/stores/mongodb/probe.ts',
    code: use('../../../apps/api/src/create-app', 'createApp'),
    breaks: 'boundaries/dependencies',
    naming: 'app',
  },
  {
    why: 'apps never import each other',
    filePath: 'apps/admin/src/probe.ts',
    code: use('../../api/src/create-app', 'createApp'),
    breaks: 'boundaries/dependencies',
    naming: 'api',
  },
  {
    why: 'an app takes its stores from the composition, never an adapter',
    filePath: 'apps/api/src/probe.ts',
    code: use('@app/stores/sqlite', 'SqliteReadModel'),
    breaks: 'boundaries/dependencies',
    naming: 'stores/sqlite',
  },
  {
    why: 'an app opens its stores through the composition',
    filePath: 'apps/admin/src/probe.ts',
    code: use('@app/composition', 'openStores'),
    breaks: null,
  },
  {
    why: 'the backups work over their port, never an adapter',
    filePath: 'libs/backup/probe.ts',
    code: use('@app/stores/sqlite', 'SQLITE_BACKUP_FILES'),
    breaks: 'boundaries/dependencies',
    naming: 'stores/sqlite',
  },
  {
    why: 'an app enters a lib through its face',
    filePath: 'apps/api/src/probe.ts',
    code: use('@app/trainees/decider/trainee.decide', 'decide'),
    breaks: 'boundaries/dependencies',
    naming: 'trainee.decide.ts',
  },
  {
    why: 'apps/api: the kernel imports no area (docs/DESIGN.md "The shared kernel")',
    filePath: 'apps/api/src/openapi/probe.ts',
    code: use('../trainees/list-trainees/list-trainees.params', 'PER_PAGE_MAX'),
    breaks: 'no-restricted-imports',
    naming: 'apps/api/src/openapi',
  },
  {
    why: 'apps/api: an area imports no other area',
    filePath: 'apps/api/src/trainees/history/probe.ts',
    code: use('../../changes/list-changes.query', 'ListChangesQuery'),
    breaks: 'no-restricted-imports',
    naming: 'apps/api/src/trainees',
  },
  {
    why: 'apps/api: an area imports the kernel below it',
    filePath: 'apps/api/src/trainees/history/probe.ts',
    code: use('../../query-params/cursor-page', 'AFTER_CHARS'),
    breaks: null,
  },
  {
    why: 'the SQLite driver is imported in libs/sqlite alone',
    filePath: 'libs/stores/sqlite/probe.ts',
    code: "import Database from 'better-sqlite3';\nexport const used = [Database];\n",
    breaks: 'boundaries/dependencies',
    naming: 'better-sqlite3',
  },
  {
    why: 'a store opens its SQLite files through libs/sqlite',
    filePath: 'libs/stores/sqlite/probe.ts',
    code: use('@app/sqlite', 'openPrivateDatabase'),
    breaks: null,
  },
  {
    why: 'a decider does no I/O',
    filePath: 'libs/trainees/decider/probe.ts',
    code: use('node:fs', 'readFileSync'),
    breaks: 'boundaries/dependencies',
    naming: 'node:fs',
  },
  {
    why: 'a decider names no API version',
    filePath: 'libs/trainees/decider/probe.ts',
    code: "export const version = 'v2025.0';\n",
    breaks: 'no-restricted-syntax',
    naming: 'API version',
  },
  {
    why: 'a position is never made from a number above the stores',
    filePath: 'libs/webhooks/delivery/probe.ts',
    code: "import { logPosition } from '@app/event-sourcing';\nexport const before = (p: number) => logPosition(p - 1);\n",
    breaks: 'no-restricted-syntax',
    naming: 'Positions',
  },
  {
    why: 'a store makes positions from its own numbers',
    filePath: 'libs/stores/sqlite/probe.ts',
    code: "import { logPosition } from '@app/event-sourcing';\nexport const fromRow = (row: { position: number }) => logPosition(row.position);\n",
    breaks: null,
  },
  {
    why: "a test may use another part's fixtures",
    filePath: 'test/e2e/probe.e2e-spec.ts',
    code: use('@app/trainees/decider/testing/trainee-events', 'TRAINEE_ID'),
    breaks: null,
  },
];

describe('the import rules of the house (docs/DESIGN.md "Layout") fire', () => {
  let results: [string | null, string][][];

  beforeAll(() => {
    const run = spawnSync(process.execPath, [join(__dirname, 'lint-snippets.mjs')], {
      cwd: ROOT,
      input: JSON.stringify(CASES.map(({ filePath, code }) => ({ filePath, code }))),
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (run.status !== 0) throw new Error(`lint-snippets failed: ${run.stderr}`);
    results = JSON.parse(run.stdout) as [string | null, string][][];
  }, 130_000);

  it.each(CASES.map((c, i) => [c.why, i] as const))('%s', (_why, i) => {
    const { breaks, naming } = CASES[i];
    const messages = results[i];
    if (breaks === null) {
      expect(messages).toEqual([]);
      return;
    }
    const hit = messages.find(([rule]) => rule === breaks);
    expect(hit).toBeDefined();
    if (naming) expect(hit![1]).toContain(naming);
  });
});
