/**
 * Jest in CommonJS mode with ts-jest: every @nestjs/* package is pinned to major 11, which is
 * CommonJS (see README, "Why NestJS 11").
 */
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.contract-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleNameMapper: {
    '^@app/contract$': '<rootDir>/libs/contract/src',
    '^@app/contract/(.*)$': '<rootDir>/libs/contract/src/$1',
    '^@app/domain$': '<rootDir>/libs/domain/src',
    '^@app/domain/(.*)$': '<rootDir>/libs/domain/src/$1',
    '^@app/event-store$': '<rootDir>/libs/event-store/src',
    '^@app/event-store/(.*)$': '<rootDir>/libs/event-store/src/$1',
    '^@app/read-model$': '<rootDir>/libs/read-model/src',
    '^@app/read-model/(.*)$': '<rootDir>/libs/read-model/src/$1',
    '^@app/application$': '<rootDir>/libs/application/src',
    '^@app/application/(.*)$': '<rootDir>/libs/application/src/$1',
    '^@app/webhooks$': '<rootDir>/libs/webhooks/src',
    '^@app/webhooks/(.*)$': '<rootDir>/libs/webhooks/src/$1',
    '^@app/telemetry$': '<rootDir>/libs/telemetry/src',
    '^@app/telemetry/(.*)$': '<rootDir>/libs/telemetry/src/$1',
    '^@app/platform$': '<rootDir>/libs/platform/src',
    '^@app/platform/(.*)$': '<rootDir>/libs/platform/src/$1',
  },
  globalSetup: '<rootDir>/test/support/announce-backends.js',
  testTimeout: 30000,
  maxWorkers: 2,
};
