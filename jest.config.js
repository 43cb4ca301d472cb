/**
 * Jest in CommonJS mode with ts-jest: every @nestjs/* package is pinned to major 11, which is
 * CommonJS (see docs/DESIGN.md "Why NestJS 11").
 */
/** Packages published only as ES modules, which Jest's CommonJS runtime on Node 20 cannot require (test/support/esm-to-commonjs.js). */
const ESM_ONLY = ['openid-client', 'oauth4webapi', 'jose', 'oidc-provider'];

module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.contract-spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: '<rootDir>/test/support/esm-to-commonjs.js',
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  moduleNameMapper: {
    '^@app/(.*)$': '<rootDir>/libs/$1',
  },
  globalSetup: '<rootDir>/test/support/global-setup.js',
  testTimeout: 30000,
  maxWorkers: 2,
};
