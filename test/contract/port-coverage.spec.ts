/**
 * Every method of every store port is driven by a contract suite that each of the port's adapters
 * runs (docs/DESIGN.md "The event store port", "Read models"; docs/operations.md "Its tests").
 *
 * The ports are read from their interfaces' source (the TypeScript compiler's parse of the files
 * below, and of every `libs/**\/*.port.ts`), so a method added to a port, or a new port, fails this
 * test until a suite calls it (or it is declared below as tested elsewhere: a capability one adapter
 * alone has, with the test file and what in it drives the method). A method counts as covered when a file of the port's suites, or of its
 * adapters' runners, calls it (`.name(`, `.name?.(`, `.name!(`); each runner must register one of
 * the port's suites, and a runner of a server adapter must say when its server is not named.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const CONTRACT = 'test/contract';

/** One adapter's runner of a port's suites: the file, and whether it needs a server named in the environment. */
interface Runner {
  file: string;
  server?: 'MONGODB_URL' | 'EVENTSTORE_URL';
}

/** A port: where its interface is declared, the suites that drive it, their runners, and the methods tested elsewhere. */
interface Port {
  file: string;
  suites: string[];
  runners: Runner[];
  /** Method → the test file that covers it instead (a capability one adapter alone has), and what the file calls it through. */
  elsewhere?: Record<string, Elsewhere>;
}

/** A test outside the contract suites and the text in it that drives the method (its name, or its caller's). */
interface Elsewhere {
  file: string;
  through: string;
}

const EVENT_STORE_SUITES = [
  'event-store.contract.ts',
  'event-store-appends.contract.ts',
  'event-store-chain.contract.ts',
  'event-store-personal-data.contract.ts',
  'event-store-reads.contract.ts',
  'event-store-subscriptions.contract.ts',
];
const EVENT_STORE_RUNNERS: Runner[] = [
  { file: 'sqlite-event-store.contract-spec.ts' },
  { file: 'eventstoredb-event-store.contract-spec.ts', server: 'EVENTSTORE_URL' },
];
const READ_MODEL_SUITES = [
  'read-model.contract.ts',
  'read-model-documents.contract.ts',
  'read-model-providers.contract.ts',
  'read-model-lists.contract.ts',
  'read-model-erasure.contract.ts',
  'read-model-rebuild.contract.ts',
  'read-model-rebuild-swap.contract.ts',
  'change-feed.contract.ts',
];
const READ_MODEL_RUNNERS: Runner[] = [
  { file: 'sqlite-read-model.contract-spec.ts' },
  { file: 'mongodb-read-model.contract-spec.ts', server: 'MONGODB_URL' },
];
const SQLITE_READ_STORE_SPEC = 'libs/stores/sqlite/read-models/sqlite-read-model.spec.ts';
/** The SQLite read store's first build, stream by stream (docs/DESIGN.md "Rebuilding by stream"), driven by the projector's catch-up. */
const STREAM_PHASE: Elsewhere = { file: SQLITE_READ_STORE_SPEC, through: 'projector.catchUp()' };

const BACKUP_SPEC = 'libs/backup/backup.spec.ts';
/** A backup made of the embedded stores' files (`createBackup` over `SQLITE_BACKUP_FILES`). */
const BACKUP_MADE: Elsewhere = { file: BACKUP_SPEC, through: 'createBackup(FILES' };

/** Every store port, by interface name. */
const PORTS: Record<string, Port> = {
  EventStore: { file: 'libs/event-sourcing/event-store.port.ts', suites: EVENT_STORE_SUITES, runners: EVENT_STORE_RUNNERS },
  StoredLog: {
    file: 'libs/event-sourcing/event-store.port.ts',
    suites: EVENT_STORE_SUITES,
    runners: EVENT_STORE_RUNNERS,
    elsewhere: {
      readStoredStreams: { file: 'libs/audit/verify-log.spec.ts', through: 'readStoredStreams' },
      readStoredStream: { file: 'libs/audit/history/history-report.spec.ts', through: 'readStoredStream' },
    },
  },
  Subscription: { file: 'libs/event-sourcing/event-store.port.ts', suites: EVENT_STORE_SUITES, runners: EVENT_STORE_RUNNERS },
  TraineeReadModel: { file: 'libs/trainees/read/trainee-read.port.ts', suites: READ_MODEL_SUITES, runners: READ_MODEL_RUNNERS },
  ChangeFeed: { file: 'libs/changes/change-feed.port.ts', suites: READ_MODEL_SUITES, runners: READ_MODEL_RUNNERS },
  ProviderReadModel: { file: 'libs/providers/read/provider-read.port.ts', suites: READ_MODEL_SUITES, runners: READ_MODEL_RUNNERS },
  ProjectionStore: {
    file: 'libs/runtime/projector/projection-store.port.ts',
    suites: READ_MODEL_SUITES,
    runners: READ_MODEL_RUNNERS,
    elsewhere: {
      initialStreamBuild: { file: SQLITE_READ_STORE_SPEC, through: 'initialStreamBuild()' },
      dropPendingStores: { file: SQLITE_READ_STORE_SPEC, through: 'projector.start()' },
    },
  },
  CheckpointStore: { file: 'libs/runtime/projector/projection-store.port.ts', suites: READ_MODEL_SUITES, runners: READ_MODEL_RUNNERS },
  ReadModelStore: { file: 'libs/runtime/projector/projection-store.port.ts', suites: READ_MODEL_SUITES, runners: READ_MODEL_RUNNERS },
  RebuildableStore: { file: 'libs/runtime/rebuild/rebuild.ts', suites: READ_MODEL_SUITES, runners: READ_MODEL_RUNNERS },
  RebuildTarget: { file: 'libs/runtime/rebuild/rebuild.ts', suites: READ_MODEL_SUITES, runners: READ_MODEL_RUNNERS },
  StreamBuild: {
    file: 'libs/runtime/projector/projection-store.port.ts',
    suites: [],
    runners: [],
    elsewhere: {
      cursor: STREAM_PHASE,
      applyStreams: STREAM_PHASE,
      finish: STREAM_PHASE,
      run: STREAM_PHASE,
      abandon: { file: 'libs/stores/sqlite/read-models/sqlite-read-model-projector.spec.ts', through: 'stream by stream failed' },
    },
  },
  DataKeyStore: {
    file: 'libs/personal-data/data-key-store.port.ts',
    suites: ['data-key-store.contract.ts'],
    runners: [
      { file: 'sqlite-data-key-store.contract-spec.ts' },
      { file: 'mongodb-data-key-store.contract-spec.ts', server: 'MONGODB_URL' },
    ],
  },
  RegistrationReservations: {
    file: 'libs/trainees/write/registration-reservations.port.ts',
    suites: ['registration-reservations.contract.ts'],
    runners: [
      { file: 'sqlite-data-key-store.contract-spec.ts' },
      { file: 'mongodb-data-key-store.contract-spec.ts', server: 'MONGODB_URL' },
    ],
  },
  DigestTreeStore: {
    file: 'libs/audit/digest-tree.ts',
    suites: ['digest-tree-store.contract.ts'],
    runners: [
      { file: 'sqlite-digest-tree-store.contract-spec.ts' },
      { file: 'mongodb-digest-tree-store.contract-spec.ts', server: 'MONGODB_URL' },
    ],
  },
  IdempotencyStore: {
    file: 'libs/runtime/idempotency/idempotency-store.port.ts',
    suites: ['idempotency-store.contract.ts'],
    runners: [
      { file: 'sqlite-idempotency-store.contract-spec.ts' },
      { file: 'mongodb-idempotency-store.contract-spec.ts', server: 'MONGODB_URL' },
    ],
  },
  PageSessionStore: {
    file: 'libs/runtime/page-sessions/page-session-store.port.ts',
    suites: ['page-session-store.contract.ts'],
    runners: [
      { file: 'sqlite-page-session-store.contract-spec.ts' },
      { file: 'mongodb-page-session-store.contract-spec.ts', server: 'MONGODB_URL' },
    ],
  },
  WebhookOutbox: {
    file: 'libs/webhooks/delivery/webhook-outbox.port.ts',
    suites: ['webhook-outbox.contract.ts'],
    runners: [
      { file: 'sqlite-webhook-outbox.contract-spec.ts' },
      { file: 'mongodb-webhook-outbox.contract-spec.ts', server: 'MONGODB_URL' },
    ],
  },
  SchoolDirectory: {
    file: 'libs/schools/school-directory.port.ts',
    suites: ['school-directory.contract.ts'],
    runners: [
      { file: 'sqlite-school-directory.contract-spec.ts' },
      { file: 'mongodb-school-directory.contract-spec.ts', server: 'MONGODB_URL' },
    ],
  },
  UploadFiles: {
    file: 'libs/uploads/write/upload-files.port.ts',
    suites: ['upload-files.contract.ts'],
    runners: [{ file: 'sqlite-upload-files.contract-spec.ts' }, { file: 'mongodb-upload-files.contract-spec.ts', server: 'MONGODB_URL' }],
  },
  BackupFiles: {
    // One adapter, the embedded stores' files (SQLITE_BACKUP_FILES): driven by the backups' own specs.
    file: 'libs/backup/backup-files.port.ts',
    suites: [],
    runners: [],
    elsewhere: {
      engineVersion: BACKUP_MADE,
      readyForCopy: BACKUP_MADE,
      copy: BACKUP_MADE,
      checkLogCopy: BACKUP_MADE,
      openSealedCopy: { file: BACKUP_SPEC, through: 'verifyBackup(FILES' },
      destroyKeys: { file: BACKUP_SPEC, through: 'restoreFiles(FILES' },
      keyVersionUse: { file: 'test/e2e/key-retirement.e2e-spec.ts', through: "'backup', 'create'" },
    },
  },
  WindowCounter: {
    file: 'libs/runtime/admission/window-counter.ts',
    suites: ['window-counter.contract.ts'],
    runners: [{ file: 'memory-window-counter.contract-spec.ts' }, { file: 'mongo-window-counter.contract-spec.ts', server: 'MONGODB_URL' }],
  },
};

/** Interfaces with methods in `*.port.ts` files that are no store's port, and why. */
const NOT_STORE_PORTS: Record<string, string> = {
  TeacherRegistry: 'the teacher registry is a remote service: its HTTP client and sandbox have their own specs in libs/registry',
};

const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The exported interfaces of `file` that declare methods, each with its own methods' names (inherited ones are their own port's). */
function interfacesOf(file: string): Map<string, string[]> {
  const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  const found = new Map<string, string[]>();
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || !node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return;
    const methods = node.members.filter(ts.isMethodSignature).map((m) => m.name.getText(source));
    if (methods.length > 0) found.set(node.name.text, methods);
  });
  return found;
}

/** Every `*.port.ts` file under libs/. */
function portFiles(dir = 'libs'): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return portFiles(file);
    return entry.name.endsWith('.port.ts') ? [file] : [];
  });
}

/** True when `text` calls a method named `method`. */
function calls(text: string, method: string): boolean {
  return new RegExp(`\\.${method}\\s*(\\?\\.|!)?\\s*\\(`).test(text);
}

/** The `describe…Contract` functions `suites` export. */
function suiteFunctions(suites: string[]): string[] {
  return suites.flatMap((s) => [...read(`${CONTRACT}/${s}`).matchAll(/export function (describe\w*Contract)\(/g)].map((m) => m[1]));
}

describe('Every store port method is covered by a contract suite that each adapter runs', () => {
  it('knows every interface with methods in the port files, as a store port or as no store port', () => {
    const unknown = portFiles().flatMap((file) =>
      [...interfacesOf(file).keys()].filter((name) => !(name in PORTS) && !(name in NOT_STORE_PORTS)),
    );
    expect(unknown).toEqual([]);
  });

  it.each(Object.keys(PORTS))('%s: every method is called by its suites or runners, or tested where declared', (name) => {
    const port = PORTS[name];
    const methods = interfacesOf(port.file).get(name);
    expect(methods).toBeDefined();
    const texts = [...port.suites, ...port.runners.map((r) => r.file)].map((f) => read(`${CONTRACT}/${f}`));
    const uncovered = methods!.filter((m) => {
      const elsewhere = port.elsewhere?.[m];
      return elsewhere ? !read(elsewhere.file).includes(elsewhere.through) : !texts.some((t) => calls(t, m));
    });
    expect(uncovered).toEqual([]);
    expect(Object.keys(port.elsewhere ?? {}).filter((m) => !methods!.includes(m))).toEqual([]);
  });

  it.each(Object.keys(PORTS).filter((name) => PORTS[name].suites.length > 0))(
    "%s: each adapter's runner registers one of its suites, and a server adapter's says when no server is named",
    (name) => {
      const port = PORTS[name];
      const functions = suiteFunctions(port.suites);
      expect(functions).not.toEqual([]);
      for (const runner of port.runners) {
        const text = read(`${CONTRACT}/${runner.file}`);
        expect({ runner: runner.file, registers: functions.some((f) => text.includes(`${f}(`)) }).toEqual({
          runner: runner.file,
          registers: true,
        });
        if (runner.server)
          expect({ runner: runner.file, names: text.includes(runner.server) || /UrlOrSkip\(/.test(text) }).toEqual({
            runner: runner.file,
            names: true,
          });
      }
      expect(port.runners.filter((r) => !r.server)).not.toEqual([]);
    },
  );

  it('finds an uncovered method: a suite that never calls it', () => {
    expect(calls('await store.forget(text)', 'forget')).toBe(true);
    expect(calls('store.forgetTrainee(id)', 'forget')).toBe(false);
    expect(calls('rm.initialStreamBuild?.()', 'initialStreamBuild')).toBe(true);
    const idempotency = read(`${CONTRACT}/idempotency-store.contract.ts`).replace(/\.forget\(/g, '.forgot(');
    expect(calls(idempotency, 'forget')).toBe(false);
  });
});
