// Lint of the whole tree (`npm run lint`, part of `npm test`). The architecture's import rules
// (docs/DESIGN.md "Layout") are checked by eslint-plugin-boundaries; format is Prettier's.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const LIBS = ['domain', 'contract', 'event-store', 'read-model', 'application', 'webhooks', 'telemetry', 'platform'];

/** What each lib may import of the other libs (docs/DESIGN.md "Layout"). */
const LIB_DEPENDENCIES = {
  domain: [],
  contract: ['domain'],
  'event-store': [],
  'read-model': ['domain', 'contract', 'event-store'],
  application: ['domain', 'event-store'],
  webhooks: ['domain', 'contract', 'event-store', 'read-model', 'application'],
  telemetry: ['domain', 'event-store', 'read-model', 'application'],
  platform: ['domain', 'contract', 'event-store', 'read-model', 'application', 'webhooks', 'telemetry'],
};

/** Packages that do I/O, run a framework or read the clock's randomness: never in the domain. */
const NOT_IN_DOMAIN = [
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

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/elements': [
        ...LIBS.map((lib) => ({ type: lib, pattern: `libs/${lib}` })),
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
            // A lib imports only the libs it is allowed (its tests may use others as fixtures), and never an app.
            ...LIBS.map((lib) => ({
              from: { element: { type: lib }, file: { categories: { noneOf: ['test'] } } },
              disallow: {
                to: { element: { types: { anyOf: [...LIBS.filter((l) => l !== lib && !LIB_DEPENDENCIES[lib].includes(l)), 'app'] } } },
              },
            })),
            // An app imports libs and itself, never another app.
            {
              from: { element: { type: 'app', captured: { app: '*' } } },
              disallow: { to: { element: { type: 'app', captured: { app: '!{{from.captured.app}}' } } } },
            },
            // The domain is pure: no framework, no I/O, no driver (docs/DESIGN.md "Layout").
            {
              from: { element: { type: 'domain' } },
              disallow: { to: { module: { origin: ['external', 'core'], source: NOT_IN_DOMAIN } } },
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
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
  prettier,
  {
    // After Prettier's config (which turns max-len off): what Prettier cannot wrap, comments, stays within 140 columns.
    files: ['**/*.ts'],
    rules: {
      'max-len': ['error', { code: 140, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
    },
  },
);
