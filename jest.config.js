/**
 * Jest in CommonJS mode with ts-jest: every @nestjs/* package is pinned to major 11, which is
 * CommonJS (see docs/DESIGN.md "Why NestJS 11").
 */
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.contract-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleNameMapper: {
    '^@app/(.*)$': '<rootDir>/libs/$1',
  },
  globalSetup: '<rootDir>/test/support/global-setup.js',
  testTimeout: 30000,
  maxWorkers: 2,
};
