// Lint of the whole tree (`npm run lint`, part of `npm test`). The import rules of the house
// (docs/DESIGN.md "Layout") are checked by eslint-plugin-boundaries; format is Prettier's.
// test/lint/boundaries.spec.ts checks that each rule fires.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * The parts of libs/, each a folder with a face (its index.ts), and the parts each may import
 * (docs/DESIGN.md "Layout"). Within a wing: record ← answers; record ← decider ← contract, write, read; every store
 * adapter above the ports it implements; the runtime above the wings, below the stores.
 */
const PARTS = {
  'event-sourcing': [],
  calendar: [],
  sqlite: [],
  keys: ['sqlite'],
  'personal-data': ['event-sourcing', 'keys'],
  'trainees/record': [],
  'trainees/decider': ['event-sourcing', 'calendar', 'trainees/record'],
  'trainees/answers': ['trainees/record'],
  'trainees/contract': ['event-sourcing', 'calendar', 'trainees/record', 'trainees/decider', 'trainees/answers'],
  'trainees/write': ['event-sourcing', 'trainees/record', 'trainees/decider'],
  'trainees/read': ['event-sourcing', 'trainees/record', 'trainees/decider', 'trainees/contract'],
  'providers/decider': ['event-sourcing', 'calendar'],
  'providers/write': ['event-sourcing', 'providers/decider'],
  'providers/read': ['event-sourcing', 'providers/decider'],
  changes: ['event-sourcing', 'personal-data', 'trainees/record', 'trainees/decider', 'trainees/answers', 'trainees/read'],
  schools: ['trainees/record'],
  registry: ['event-sourcing', 'trainees/record', 'trainees/decider', 'trainees/write'],
  'webhooks/decider': ['event-sourcing', 'trainees/decider', 'providers/decider'],
  'webhooks/write': ['event-sourcing', 'keys', 'trainees/record', 'webhooks/decider', 'providers/read'],
  'webhooks/delivery': ['event-sourcing', 'trainees/record', 'webhooks/decider', 'webhooks/write', 'changes'],
  audit: ['event-sourcing', 'trainees/record', 'trainees/decider', 'trainees/contract', 'trainees/read'],
  'personal-data/erasure': ['event-sourcing', 'personal-data', 'trainees/record', 'trainees/decider', 'trainees/read'],
  'uploads/decider': ['event-sourcing'],
  'uploads/csv': ['event-sourcing'],
  'uploads/write': [
    'event-sourcing',
    'personal-data',
    'trainees/record',
    'trainees/decider',
    'trainees/contract',
    'trainees/write',
    'uploads/decider',
    'uploads/csv',
  ],
};
const WINGS = Object.keys(PARTS);
/** The runtime (projector, rebuilds, telemetry, a process's configuration) may import every wing; the stores, the runtime too. */
const RUNTIME = [
  'runtime/admission',
  'runtime/projector',
  'runtime/rebuild',
  'runtime/idempotency',
  'runtime/page-sessions',
  'runtime/tracing',
  'runtime/telemetry',
  'runtime/process',
  'runtime/event-transfer',
];
/** The backups (manifest, checks, restore, schedule, erasure ledger): above the runtime, over a port the stores implement. */
const BACKUP = 'backup';
const STORES = ['stores/sqlite', 'stores/mongodb', 'stores/eventstoredb'];
/** The one part that chooses the adapters and hands each process the ports it needs: above the stores, below the apps. */
const COMPOSITION = 'composition';
const ALLOWED = {
  ...PARTS,
  ...Object.fromEntries(RUNTIME.map((r) => [r, [...WINGS, ...RUNTIME]])),
  [BACKUP]: [...WINGS, ...RUNTIME],
  ...Object.fromEntries(STORES.map((s) => [s, [...WINGS, ...RUNTIME, BACKUP, ...STORES]])),
  [COMPOSITION]: [...WINGS, ...RUNTIME, BACKUP, ...STORES],
};
const LIB_PARTS = Object.keys(ALLOWED);

/** Parts whose code is pure (the deciders and what they read): no framework, no I/O, no driver. */
const PURE = [
  'calendar',
  'trainees/record',
  'trainees/answers',
  'trainees/decider',
  'providers/decider',
  'webhooks/decider',
  'uploads/decider',
];
/** Packages that do I/O, run a framework or read the clock's randomness: never in a pure part. */
const NOT_IN_PURE = [
  '@nestjs/*',
  'node:*',
  'fs',
  'path',
  'crypto',
  'mongodb',
  'better-sqlite3',
  '@eventstore/*',
  'pino',
  'fastify',
  'class-validator',
  'class-transformer',
  'rxjs',
];

/**
 * The folders of apps/api/src from the ground up (docs/DESIGN.md "The shared kernel"): a folder
 * imports only the folders of the floors below its own; the areas (one Nest module each) import no
 * other area; the served documents, above every area, state the bounds the areas set.
 */
const API_FLOORS = [
  ['composition'],
  ['auth', 'observability'],
  ['idempotency', 'bodies', 'errors'],
  ['admission', 'openapi', 'query-params'],
  ['trainees', 'changes', 'uploads', 'audit', 'reference-data', 'info', 'health'],
  ['api-docs', 'uploads-page'],
];
const AREAS = API_FLOORS[4];

/** One config per folder of apps/api/src: the relative imports of the folders it may not reach. */
const apiFloorRules = API_FLOORS.flatMap((floor, level) =>
  floor.map((folder) => {
    const above = API_FLOORS.slice(level + 1).flat();
    const refused = AREAS.includes(folder) ? [...above, ...AREAS.filter((a) => a !== folder)] : above;
    return {
      files: [`apps/api/src/${folder}/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: `^(\\.\\./)+(${refused.join('|')})(/|$)`,
                message: `apps/api/src/${folder} imports only the folders below it (docs/DESIGN.md "The shared kernel").`,
              },
            ],
          },
        ],
      },
    };
  }),
);

export default tseslint.config(
  {
    // examples/api-types.ts is generated from the served OpenAPI document (npm run examples:types).
    ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', 'examples/api-types.ts', '**/*.js', '**/*.mjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      // The longest folder first: libs/stores/sqlite is its own part, libs/stores the rest of the stores.
      'boundaries/elements': [
        ...[...LIB_PARTS].sort((a, b) => b.length - a.length).map((part) => ({ type: part, pattern: `libs/${part}` })),
        { type: 'app', pattern: 'apps/*', capture: ['app'] },
      ],
      'boundaries/files': [
        { category: 'test', pattern: ['**/*.spec.ts', '**/testing/**', 'test/**', 'bench/**'] },
        { category: 'code', pattern: ['**/*.ts'] },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          checkAllOrigins: true,
          policies: [
            // A part imports only the parts it is allowed (its tests may use others as fixtures), and never an app.
            ...LIB_PARTS.map((part) => ({
              from: { element: { type: part }, file: { categories: { noneOf: ['test'] } } },
              disallow: {
                to: { element: { types: { anyOf: [...LIB_PARTS.filter((p) => p !== part && !ALLOWED[part].includes(p)), 'app'] } } },
              },
            })),
            // Another part is entered through its face (its index.ts), never by a file inside it (tests may reach inside).
            {
              from: { element: { types: { anyOf: LIB_PARTS } }, file: { categories: { noneOf: ['test'] } } },
              disallow: { to: { element: { types: { anyOf: LIB_PARTS }, fileInternalPath: '!index.ts' } } },
            },
            {
              from: { element: { types: { anyOf: LIB_PARTS } }, file: { categories: { noneOf: ['test'] } } },
              allow: { to: { element: { type: '{{from.type}}' } } },
            },
            {
              from: { element: { type: 'app' }, file: { categories: { noneOf: ['test'] } } },
              disallow: { to: { element: { types: { anyOf: LIB_PARTS }, fileInternalPath: '!index.ts' } } },
            },
            // An app takes its stores from the composition, never an adapter (docs/DESIGN.md "Layout").
            {
              from: { element: { type: 'app' }, file: { categories: { noneOf: ['test'] } } },
              disallow: { to: { element: { types: { anyOf: STORES } } } },
            },
            // An app imports libs and itself, never another app.
            {
              from: { element: { type: 'app', captured: { app: '*' } } },
              disallow: { to: { element: { type: 'app', captured: { app: '!{{from.captured.app}}' } } } },
            },
            // The SQLite driver is imported in libs/sqlite alone; every other part opens its files through it (docs/DESIGN.md "Layout").
            {
              from: {
                element: { types: { anyOf: [...LIB_PARTS.filter((p) => p !== 'sqlite'), 'app'] } },
                file: { categories: { noneOf: ['test'] } },
              },
              disallow: { to: { module: { origin: ['external'], source: ['better-sqlite3'] } } },
            },
            // The deciders are pure: no framework, no I/O, no driver (docs/DESIGN.md "Layout").
            {
              from: { element: { types: { anyOf: PURE } } },
              disallow: { to: { module: { origin: ['external', 'core'], source: NOT_IN_PURE } } },
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests read JSON answers of any shape through `any` (an HTTP body, a document fetched); the
    // code under apps/ and libs/ never does.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // A number becomes a log position only inside the stores and where a position the store gave
    // comes back from outside (docs/DESIGN.md "Positions"): never computed above the stores.
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    ignores: [
      '**/*.spec.ts',
      '**/testing/**',
      'libs/stores/**',
      'libs/event-sourcing/**',
      'libs/changes/cursors.ts',
      'libs/audit/digest-file.ts',
      'libs/audit/stream-digest.ts',
      'apps/admin/src/commands/events.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='logPosition']",
          message: 'A position comes from a store (docs/DESIGN.md "Positions"): take the one the store gave, or LOG_START.',
        },
      ],
    },
  },
  {
    // A decider never names an API version: the version's differences arrive as rules (docs/DESIGN.md "Layout").
    files: [
      'libs/trainees/decider/**/*.ts',
      'libs/providers/decider/**/*.ts',
      'libs/webhooks/decider/**/*.ts',
      'libs/uploads/decider/**/*.ts',
    ],
    ignores: ['**/*.spec.ts', '**/testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Literal[value=/^v\\d{4}\\.\\d/]', message: 'A decider names no API version: read the version’s rules instead.' },
        {
          selector: 'TemplateElement[value.raw=/v\\d{4}\\.\\d/]',
          message: 'A decider names no API version: read the version’s rules instead.',
        },
      ],
    },
  },
  {
    // Size limits of the code (docs/DESIGN.md "Layout"): a file reads in one sitting, a function on one screen.
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/testing/**'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  ...apiFloorRules,
  prettier,
  {
    // After Prettier's config (which turns max-len off): what Prettier cannot wrap, comments, stays within 140 columns.
    files: ['**/*.ts'],
    rules: {
      'max-len': ['error', { code: 140, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
    },
  },
);
